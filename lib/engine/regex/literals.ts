/**
 * @module required literals of a pattern: text every match must contain (`\bgit\b.*push` needs "git" and
 * "push"), what selection files a rule under. Conservative by construction: anything not understood ends
 * a literal run or gives up, so a literal returned here is in every match, in JS and in re2js alike.
 */

const ESCAPED_LITERALS = new Set([..."\\/.-()[]{}*+?|^$\"':=!<>,#&~@%`; _"]);

/**
 * Sets of literals, lower-cased, such that every match of `pattern` contains at least one literal of each
 * set; [] when none can be proven, undefined when the syntax is not understood. Conservative by
 * construction: anything not understood ends a literal run or gives up.
 */
export function requiredLiteralSets(pattern: string, flags = ""): string[][] | undefined {
  // Unicode sets (v) and unknown flags: not worth the risk of misreading the syntax.
  if (/[^gimsuyd]/.test(flags)) return undefined;
  const parsed = parseAlternation(pattern, 0);
  if (!parsed || parsed.end !== pattern.length) return undefined;
  // `i` with Unicode folding matches U+017F for "s" and U+212A for "k": the scan folds those too.
  return parsed.sets;
}

/** Shortest literal of a set: what a set is worth as a filter, before knowing how common its text is. */
function strength(set: string[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const l of set) min = Math.min(min, l.length);
  return min;
}

/** Parses alternatives from `i` up to a `)` or the end; `end` is the index of that `)` (or the length). */
function parseAlternation(p: string, i: number): { sets: string[][]; end: number } | undefined {
  const branches: string[][][] = [];
  let sets: string[][] = [];
  let run = "";
  const endRun = () => {
    if (run !== "") sets.push([run]);
    run = "";
  };
  for (;;) {
    const ch = p[i];
    if (ch === undefined || ch === ")" || ch === "|") {
      endRun();
      branches.push(sets);
      sets = [];
      if (ch !== "|") break;
      i++;
      continue;
    }
    if (ch === "^" || ch === "$") {
      i++; // zero-width: the text around it stays contiguous
      continue;
    }
    let literal: string | undefined;
    let atomEnd: number;
    let inner: string[][] | undefined;
    if (ch === "\\") {
      const next = p[i + 1];
      if (next === undefined) return undefined;
      if (next === "b" || next === "B") {
        i += 2;
        continue;
      }
      if ("dDwWsS".includes(next)) literal = undefined;
      else if (ESCAPED_LITERALS.has(next)) literal = next;
      else return undefined; // \x, \u, \p, \k, \c, backreferences, RE2's \Q...: not worth modelling
      atomEnd = i + 2;
    } else if (ch === "(") {
      let body = i + 1;
      let counts = true;
      if (p[i + 1] === "?") {
        const k = p[i + 2];
        const k2 = p[i + 3];
        if (k === ":") body = i + 3;
        else if (k === "=" || k === "!") {
          body = i + 3;
          counts = false; // lookahead: its text is not consumed here
        } else if (k === "<" && (k2 === "=" || k2 === "!")) {
          body = i + 4;
          counts = false;
        } else if (k === "<" || (k === "P" && k2 === "<")) {
          const close = p.indexOf(">", i);
          if (close === -1) return undefined;
          body = close + 1;
        } else return undefined; // inline flags and other extensions change matching
      }
      const group = parseAlternation(p, body);
      if (!group || p[group.end] !== ")") return undefined;
      atomEnd = group.end + 1;
      if (counts) inner = group.sets;
    } else if (ch === "[") {
      const close = skipClass(p, i);
      if (close === undefined) return undefined;
      atomEnd = close;
    } else if (ch === "]" || ch === "{" || ch === "}" || ch === "*" || ch === "+" || ch === "?") {
      return undefined; // stray syntax: the engine may read it differently
    } else if (ch === ".") {
      atomEnd = i + 1;
    } else {
      const code = ch.charCodeAt(0);
      literal = code >= 32 && code < 127 ? ch : undefined;
      atomEnd = i + 1;
    }
    const q = quantifierEnd(p, atomEnd);
    if (q === undefined) return undefined;
    if (q > atomEnd || literal === undefined) {
      // A quantified atom may repeat or vanish; a group or class is not literal text: the run stops.
      endRun();
      // A group that must occur once as written still requires its own literals.
      if (q === atomEnd && inner) sets.push(...inner);
      i = q;
      continue;
    }
    run += literal.toLowerCase();
    i = atomEnd;
  }
  if (branches.length === 1) return { sets: branches[0] as string[][], end: i };
  // Alternatives: each must bring a set; their best sets together form one set.
  const union: string[] = [];
  for (const b of branches) {
    if (b.length === 0) return { sets: [], end: i };
    let best = b[0] as string[];
    for (const set of b) if (strength(set) > strength(best) || (strength(set) === strength(best) && set.length < best.length)) best = set;
    for (const l of best) if (!union.includes(l)) union.push(l);
  }
  return { sets: [union], end: i };
}

/** Index just past a quantifier at `i` (with its lazy `?`), `i` when there is none, undefined if unsure. */
function quantifierEnd(p: string, i: number): number | undefined {
  const ch = p[i];
  let end = i;
  if (ch === "*" || ch === "+" || ch === "?") end = i + 1;
  else if (ch === "{") {
    const m = /^\{\d+(,\d*)?\}/.exec(p.slice(i, i + 24));
    if (!m) return undefined;
    end = i + m[0].length;
  } else return i;
  return p[end] === "?" ? end + 1 : end;
}

/** Index just past the `]` closing the class opened at `i`; undefined for forms engines read differently. */
function skipClass(p: string, i: number): number | undefined {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") return undefined; // `[]a]`: empty class in JS, a class with "]" in RE2
  for (; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "[") return undefined; // nested or POSIX classes
    else if (c === "]") return j + 1;
  }
  return undefined;
}
