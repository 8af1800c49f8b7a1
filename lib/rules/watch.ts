/** @module watches folders that may not exist yet (editors replace files atomically, so folders, not files). */
import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { dirname } from "node:path";

export interface DirWatch {
  close(): void;
}

/**
 * Calls `onChange(fileName)` when something in `dir` changes. While `dir` does not exist, watches the
 * closest existing ancestor and switches over once it appears. A slow stat poll backs up fs.watch,
 * which can drop events on some file systems.
 */
export function watchDir(dir: string, onChange: (name: string | null) => void, pollMs = 1000): DirWatch {
  let watcher: FSWatcher | undefined;
  let watchedPath = "";
  let closed = false;
  let lastMtime = mtimeOf(dir);

  const arm = () => {
    if (closed) return;
    const target = existsSync(dir) ? dir : closestExisting(dir);
    if (target === watchedPath && watcher) return;
    watcher?.close();
    watcher = undefined;
    watchedPath = target;
    try {
      watcher = watch(target, { persistent: false }, (_event, name) => {
        if (target !== dir) {
          // An ancestor changed: the folder we want may have appeared.
          if (existsSync(dir)) {
            arm();
            onChange(null);
          }
          return;
        }
        onChange(typeof name === "string" ? name : null);
      });
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
        watchedPath = "";
        setTimeout(arm, 50).unref?.();
      });
    } catch {
      watcher = undefined;
      watchedPath = "";
    }
  };

  arm();
  const timer = setInterval(() => {
    const m = mtimeOf(dir);
    if (m !== lastMtime) {
      lastMtime = m;
      arm();
      onChange(null);
    } else if (watchedPath !== dir && existsSync(dir)) {
      arm();
      onChange(null);
    }
  }, pollMs);
  timer.unref?.();

  return {
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
      watcher = undefined;
    },
  };
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

function closestExisting(path: string): string {
  let cur = dirname(path);
  while (!existsSync(cur)) {
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return cur;
}
