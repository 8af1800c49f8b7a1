/** @module remote and infrastructure effects: deleting buckets, clusters, stacks and volumes; secrets read from containers and clusters. */
import type { SimpleCommand } from "../types.ts";
import { effect, type Effect } from "./types.ts";

/** `--dry-run`, `--dryrun`, `--what-if`, `kubectl --dry-run=client|server` (not `=none`): nothing is deleted. */
function dry(a: string[]): boolean {
  return a.some((w) => w === "--dry-run" || w === "--dryrun" || w === "--what-if" || w === "--whatif" || (/^--dry-run=/.test(w) && w !== "--dry-run=none") || w === "-help" || w === "--help");
}

/** Operands: words that are not options (an option's value may slip in; only verbs and resource kinds are compared). */
function operands(a: string[]): string[] {
  return a.slice(1).filter((w) => !w.startsWith("-"));
}

const RECURSIVE = (a: string[]) => a.some((w) => w === "--recursive" || /^-[a-zA-Z]*[rR]$/.test(w) || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(w) && !w.startsWith("--"));

const AWS_DESTROY = /^(?:terminate-instances|delete-(?:objects|bucket|db-instance|db-cluster|table|stack|cluster|file-system|volume|nodegroup|repository|hosted-zone|log-group|global-table|domain|replication-group|cache-cluster|environment))$/;
const K8S_WIDE = /^(?:ns|namespaces?|pv|persistentvolumes?|pvc|persistentvolumeclaims?|crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?|nodes?|no)$/;
const GCLOUD_RESOURCE = new Set(["projects", "instances", "clusters", "buckets", "databases", "disks", "snapshots", "backups", "repositories", "services"]);
const AZ_RESOURCE = new Set(["group", "account", "container", "share", "vm", "aks", "db", "server", "cosmosdb", "keyvault", "webapp", "vault", "vmss", "disk", "snapshot", "registry", "deployment"]);

/** What a cloud, cluster or container CLI deletes beyond this machine, in a form that does not only list or plan. */
const REMOTE_TOOLS = new Set(["rclone", "aws", "gsutil", "gcloud", "az", "kubectl", "oc", "terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "helm", "docker", "podman", "s3cmd", "mc", "eksctl", "heroku", "fly", "flyctl", "firebase", "docker-compose", "glab", "virsh", "azcopy"]);

function remoteDelete(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  // Most commands are none of these: one set lookup, before any scan of the words.
  // `-h` is help to all of them but gsutil (a header there).
  if (!REMOTE_TOOLS.has(p) || dry(a) || (p !== "gsutil" && a.includes("-h"))) return undefined;
  const ops = operands(a);
  const verb = ops[0] ?? "";
  switch (p) {
    case "rclone": {
      // `rclone sync SRC remote:DST` makes DST a copy of SRC: whatever DST holds that SRC lacks is deleted.
      if ((verb === "sync" || verb === "bisync") && /^[\w.-]+:/.test(ops[ops.length - 1] ?? "") && !/^[A-Za-z]:[\\/]/.test(ops[ops.length - 1] ?? "") && !a.includes("-n") && !a.includes("-i") && !a.includes("--interactive")) return `rclone ${verb} into ${ops[ops.length - 1]}`;
      // A local operand is a file delete (files.ts); `remote:path` is data in a cloud store.
      if (!/^(?:purge|delete|deletefile|rmdirs|rmdir|cleanup)$/.test(verb) || a.includes("-n") || a.includes("--interactive") || a.includes("-i")) return undefined;
      const target = ops.slice(1).find((w) => /^[\w.-]+:/.test(w));
      return target === undefined ? undefined : `rclone ${verb} ${target}`;
    }
    case "aws": {
      if (verb === "s3" && ops[1] === "rm" && RECURSIVE(a)) return `aws s3 rm --recursive ${ops[2] ?? ""}`;
      if (verb === "s3" && ops[1] === "rb" && a.includes("--force")) return `aws s3 rb --force ${ops[2] ?? ""}`;
      if (verb === "s3" && ops[1] === "sync" && a.includes("--delete") && ops.slice(2).some((w) => w.startsWith("s3://"))) return "aws s3 sync --delete into a bucket";
      const action = ops[1] ?? "";
      // Any service's delete-*/purge-*/terminate-* action deletes what it names there (a secret, a queue, an object).
      return AWS_DESTROY.test(action) || /^(?:batch-)?(?:delete|purge|terminate|deregister)-[\w-]+$/.test(action) || (verb === "s3" && action === "rm" && (ops[2] ?? "").startsWith("s3://")) ? `aws ${verb} ${action}` : undefined;
    }
    case "gsutil": {
      // `gsutil rsync -d SRC gs://DST`: -d deletes in DST what SRC lacks (-n is its dry run).
      const rs = a.indexOf("rsync");
      if (rs > 0 && a.slice(rs + 1).some((w) => /^-[a-zA-Z]*[dD]/.test(w) && !w.startsWith("--")) && !a.slice(rs + 1).some((w) => /^-[a-zA-Z]*n/.test(w) && !w.startsWith("--")) && (ops[ops.length - 1] ?? "").startsWith("gs://")) return `gsutil rsync -d into ${ops[ops.length - 1]}`;
      const k = ops.findIndex((w) => w === "rm" || w === "rb");
      if (k < 0) return undefined;
      if (ops[k] === "rb") return `gsutil rb ${ops[k + 1] ?? ""}`;
      const after = a.slice(a.indexOf("rm") + 1);
      return after.some((w) => /^-[a-zA-Z]*[rRa]/.test(w) && !w.startsWith("--")) || ops.slice(k + 1).some((w) => /^gs:\/\/[^/]+\/?(?:\*\*?)?$/.test(w)) ? `gsutil rm -r ${ops[k + 1] ?? ""}` : undefined;
    }
    case "gcloud": {
      if (verb === "storage" && ops[1] === "rm" && RECURSIVE(a)) return `gcloud storage rm -r ${ops[2] ?? ""}`;
      const del = ops.indexOf("delete");
      if (del > 0 && ops.slice(0, del).some((w) => GCLOUD_RESOURCE.has(w))) return `gcloud ${ops.slice(0, del + 1).join(" ")}`;
      return undefined;
    }
    case "az": {
      if (ops.includes("delete-batch")) return `az ${ops.slice(0, ops.indexOf("delete-batch") + 1).join(" ")}`;
      const del = ops.indexOf("delete");
      // `az group delete` deletes a resource group; `az deployment group delete` only a deployment's record.
      if (del > 0 && AZ_RESOURCE.has(ops[del - 1] ?? "") && (ops[del - 1] !== "group" || del === 1)) return `az ${ops.slice(0, del + 1).join(" ")}`;
      return undefined;
    }
    case "kubectl":
    case "oc": {
      if (verb !== "delete") return undefined;
      const kinds = ops.slice(1).flatMap((w) => w.split(",")).map((w) => w.replace(/\/.*$/, "").toLowerCase());
      if (a.includes("--all") || a.includes("-A") || a.includes("--all-namespaces")) return `${p} delete --all`;
      const wide = kinds.find((k) => K8S_WIDE.test(k));
      return wide === undefined ? undefined : `${p} delete ${wide}`;
    }
    case "terraform":
    case "tofu":
    case "terragrunt": {
      if (verb === "destroy" || (verb === "run-all" && ops[1] === "destroy")) return `${p} destroy`;
      if (verb === "apply" && (a.includes("-destroy") || a.includes("--destroy"))) return `${p} apply -destroy`;
      return undefined;
    }
    case "pulumi":
    case "cdk":
    case "cdktf":
    case "serverless":
    case "sls":
      return verb === "destroy" || (p === "pulumi" && verb === "stack" && ops[1] === "rm") ? `${p} ${verb}` : undefined;
    case "helm":
      return /^(?:uninstall|delete|del|un)$/.test(verb) && ops.length > 1 ? `helm ${verb} ${ops[1]}` : undefined;
    case "docker":
    case "podman": {
      if (verb === "system" && ops[1] === "prune" && a.includes("--volumes")) return `${p} system prune --volumes`;
      if (verb === "volume" && (ops[1] === "rm" || ops[1] === "remove" || ops[1] === "prune")) return `${p} volume ${ops[1]}`;
      if (verb === "compose" && ops[1] === "down" && a.some((w) => w === "-v" || w === "--volumes")) return `${p} compose down --volumes`;
      return undefined;
    }
    case "s3cmd":
      return (verb === "del" || verb === "rm" || verb === "rb") && RECURSIVE(a) ? `s3cmd ${verb} --recursive` : undefined;
    case "mc":
      return (verb === "rm" && RECURSIVE(a)) || (verb === "rb" && a.includes("--force")) ? `mc ${verb} ${ops[1] ?? ""}` : undefined;
    case "eksctl":
      return verb === "delete" && /^(?:cluster|nodegroup)$/.test(ops[1] ?? "") ? `eksctl delete ${ops[1]}` : undefined;
    case "heroku":
      return /^(?:apps:destroy|destroy|pg:reset|addons:destroy)$/.test(verb) ? `heroku ${verb}` : undefined;
    case "fly":
    case "flyctl":
      return (verb === "apps" && /^(?:destroy|delete)$/.test(ops[1] ?? "")) || verb === "destroy" || (verb === "volumes" && /^(?:destroy|delete)$/.test(ops[1] ?? "")) ? `${p} ${verb} ${ops[1] ?? ""}` : undefined;
    case "firebase":
      return /^(?:firestore:delete|database:remove|projects:delete|hosting:disable)$/.test(verb) ? `firebase ${verb}` : undefined;
    case "glab":
      return verb === "repo" && ops[1] === "delete" ? `glab repo delete ${ops[2] ?? ""}` : undefined;
    case "virsh":
      return verb === "undefine" && a.some((w) => w === "--remove-all-storage" || w === "--storage") ? "virsh undefine --remove-all-storage" : verb === "vol-delete" || verb === "vol-wipe" ? `virsh ${verb}` : undefined;
    case "azcopy":
      if (verb === "sync" && a.some((w) => /^--delete-destination=(?:true|prompt)$/i.test(w))) return "azcopy sync --delete-destination";
      if (verb === "remove" || verb === "rm") return RECURSIVE(a) ? `azcopy ${verb} --recursive` : undefined;
      return undefined;
    case "docker-compose":
      return verb === "down" && a.some((w) => w === "-v" || w === "--volumes") ? "docker-compose down --volumes" : undefined;
    default:
      return undefined;
  }
}

/**
 * Service CLIs that hold data elsewhere (secret stores, backups, queues, search, CI, hosting) and the subcommand words
 * that destroy it there: one of the first three operands (`vault kv destroy`, `restic forget`, `nats stream rm`).
 * Listing, reading and creating forms share the program and not the verb.
 */
const SERVICE_VERBS = new Map<string, RegExp>([
  ["vault", /^(?:delete|destroy|disable|revoke)$/],
  ["op", /^(?:delete|rm)$/],
  ["doppler", /^(?:delete|rm|del)$/],
  ["restic", /^(?:forget|prune)$/],
  ["borg", /^(?:delete|prune|compact|repo-delete|rdelete)$/],
  ["velero", /^delete$/],
  ["rabbitmqctl", /^(?:delete_\w+|clear_\w+|purge_queue|reset|force_reset)$/],
  ["rabbitmqadmin", /^(?:delete|purge)$/],
  ["nats", /^(?:rm|delete|del|purge)$/],
  ["gitlab-runner", /^unregister$/],
  ["circleci", /^(?:delete|remove-secret)$/],
  ["gh", /^delete$/],
  ["jenkins-cli", /^delete-\w+$/],
  ["doctl", /^(?:delete|rm|d)$/],
  ["wrangler", /^delete$/],
  ["vercel", /^(?:rm|remove)$/],
  ["netlify", /^sites:delete$/],
  ["supabase", /^delete$/],
  ["neonctl", /^delete$/],
  ["pscale", /^delete$/],
  ["turso", /^destroy$/],
]);
/** Kafka's admin tools delete with a flag: `kafka-topics --delete`, `kafka-consumer-groups --delete`, `kafka-acls --remove`. */
const KAFKA = /^kafka-(topics|consumer-groups|acls|delete-records)(?:\.sh)?$/;
const HTTP_CLIENTS = new Set(["curl", "wget", "http", "https", "xh", "xhs"]);
/** Endpoints that delete whatever method reaches them: Elasticsearch/OpenSearch delete-by-query, Jenkins' doDelete. */
/** Ports of data stores with an HTTP API (Elasticsearch/OpenSearch, Meilisearch, CouchDB, InfluxDB, Qdrant, Typesense, Solr, ArangoDB). */
const STORE_PORTS = new Set(["9200", "9201", "7700", "5984", "8086", "6333", "8108", "8983", "8529"]);
const DELETE_ENDPOINT = /\/_delete_by_query\b|\/doDelete\b/;

/** An HTTP request with the DELETE method, or to a deleting endpoint: data deleted in the service it reaches. */
function httpDelete(cmd: SimpleCommand): string | undefined {
  const a = cmd.argv;
  let method = "";
  if (cmd.program === "curl") {
    for (let k = 1; k < a.length; k++) {
      const w = a[k] ?? "";
      if (w === "-X" || w === "--request") method = a[k + 1] ?? "";
      else if (w.startsWith("--request=")) method = w.slice(10);
      else if (/^-[a-zA-Z]*X./.test(w) && !w.startsWith("--")) method = w.slice(w.indexOf("X") + 1);
    }
  } else if (cmd.program === "wget") method = a.find((w) => w.startsWith("--method="))?.slice(9) ?? "";
  else method = operands(a)[0] ?? "";
  const target = a.find((w) => /^(?:https?:\/\/)?(?:[\w-]+\.)*[\w-]+(?::\d+)?\/|^https?:/.test(w) && !w.startsWith("/") && !w.startsWith("-")) ?? "";
  const endpoint = DELETE_ENDPOINT.test(target);
  if (method.toUpperCase() !== "DELETE" && !endpoint) return undefined;
  // A developer's own server on this machine (`curl -X DELETE localhost:8080/api/items/1`) runs; a data store's
  // index, collection or everything in it (`localhost:9200/_all`, `/indexes/x`, `*`) does not, wherever it is.
  const local = /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(\d+))?(?:\/|$)/.exec(target);
  if (local && !endpoint && !STORE_PORTS.has(local[1] ?? "") && !/\/_all\b|\*|\/indexes\/|\/collections\/|\/_snapshot\/|\/_data_stream\//.test(target)) return undefined;
  return `${cmd.program} ${endpoint ? "" : "DELETE "}${target}`;
}

function serviceDelete(cmd: SimpleCommand): string | undefined {
  const a = cmd.argv;
  let p = cmd.program;
  // `java -jar jenkins-cli.jar -s URL delete-job x`: the jar is the program.
  if (p === "java") {
    const jar = a[a.indexOf("-jar") + 1] ?? "";
    if (a.indexOf("-jar") < 1 || !/(?:^|\/)jenkins-cli\.jar$/.test(jar)) return undefined;
    p = "jenkins-cli";
  }
  if (HTTP_CLIENTS.has(p)) return httpDelete(cmd);
  if (p === "gh" && a.includes("api")) {
    // `gh api -X DELETE repos/o/r/...`
    const k = a.findIndex((w) => w === "-X" || w === "--method");
    const m = k > 0 ? a[k + 1] : a.find((w) => w.startsWith("--method="))?.slice(9);
    return m?.toUpperCase() === "DELETE" ? "gh api DELETE" : undefined;
  }
  const kafka = KAFKA.exec(p);
  if (kafka) {
    if (dry(a) || a.includes("--list") || a.includes("--describe")) return undefined;
    return kafka[1] === "delete-records" || a.includes("--delete") || (kafka[1] === "acls" && a.includes("--remove")) ? `${p} deletes ${kafka[1] === "acls" ? "ACLs" : "topics, groups or records"}` : undefined;
  }
  const verbs = SERVICE_VERBS.get(p);
  if (verbs === undefined || dry(a) || a.includes("-h")) return undefined;
  // restic and borg: -n is their dry run.
  if ((p === "restic" || p === "borg") && a.some((w) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w) && !w.startsWith("--"))) return undefined;
  const verb = operands(a).slice(0, 3).find((w) => verbs.test(w));
  return verb === undefined ? undefined : `${p} ${verb}`;
}

/** The command a `docker exec` / `kubectl exec` runs inside the container: the words after the container. */
function execCommand(cmd: SimpleCommand): string[] | undefined {
  const a = cmd.argv;
  const k = a.indexOf("exec");
  if (k < 1) return undefined;
  if (cmd.program === "kubectl" || cmd.program === "oc") {
    const dash = a.indexOf("--", k);
    return dash > 0 ? a.slice(dash + 1) : undefined;
  }
  const valued = new Set(["-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys"]);
  let i = k + 1;
  for (; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!w.startsWith("-")) break;
    if (valued.has(w)) i++;
  }
  return a.slice(i + 1);
}

const ENV_PRINTERS = /^(?:env|printenv|set|export)$/;

/** Secrets a container or cluster holds, printed: `docker inspect -f '{{.Config.Env}}'`, `docker exec c env`, `kubectl exec p -- printenv`. */
function containerSecret(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  if (p !== "docker" && p !== "podman" && p !== "kubectl" && p !== "oc") return undefined;
  const a = cmd.argv;
  const ops = operands(a);
  if ((p === "docker" || p === "podman") && (ops[0] === "inspect" || (ops[1] === "inspect" && (ops[0] === "container" || ops[0] === "image")))) {
    return a.some((w) => /\.(?:Config\.)?Env\b|\.Config\b\s*\}\}|json \.Config\s*\}\}/.test(w)) ? `${p} inspect prints the container's environment` : undefined;
  }
  if ((p === "kubectl" || p === "oc") && ops[0] === "view-secret") return `${p} view-secret prints a secret`;
  const inner = execCommand(cmd);
  if (inner === undefined || inner.length === 0) return undefined;
  const prog = (inner[0] ?? "").replace(/^.*\//, "");
  if (ENV_PRINTERS.test(prog) && inner.length === 1) return `${p} exec prints the container's environment`;
  if (inner.some((w) => /\/proc\/(?:\d+|self|1)\/environ\b/.test(w))) return `${p} exec reads a process environment`;
  // Docker and Kubernetes mount their secrets here: `kubectl exec p -- cat /var/run/secrets/kubernetes.io/serviceaccount/token`.
  if (inner.some((w) => /^\/(?:var\/)?run\/secrets\/./.test(w))) return `${p} exec reads the secrets mounted in the container`;
  if ((prog === "sh" || prog === "bash") && inner[1] === "-c" && /^\s*(?:env|printenv|set)\s*(?:$|[|;&])/.test(inner[2] ?? "")) return `${p} exec prints the container's environment`;
  return undefined;
}

export const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "mongo", "mongosh", "cockroach", "clickhouse-client", "sqlcmd", "redis-cli", "valkey-cli", "cqlsh", "snowsql", "bq", "sqlite3", "sqlite", "duckdb", "mysqlsh", "pgcli", "mycli", "litecli", "usql", "turso", "d1"]);
/** Statements that drop or empty a database, a schema or a table: DELETE with no WHERE is as good as TRUNCATE. */
export const SQL_DESTROY = /\bdrop\s+(?:database|schema|table|keyspace)\b|\btruncate\s+(?:table\s+)?\w|\bdelete\s+from\s+[\w."`]+\s*(?:;|$)|\bflushall\b|\bflushdb\b|\.dropDatabase\s*\(|\bdb\.\w+\.drop\s*\(|\.deleteMany\s*\(\s*\{\s*\}\s*\)/im;

/** A database client told to drop or empty what it is connected to (`psql -c 'DROP DATABASE x'`, `redis-cli FLUSHALL`, `dropdb x`). */
function databaseDestroy(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  if (p === "dropdb") return `dropdb ${operands(cmd.argv)[0] ?? ""}`;
  if (!SQL_CLIENTS.has(p)) return undefined;
  // The statement can be an argument (-c, -e, --eval, a redis command) or standard input (<<<, a heredoc).
  const text = [...cmd.argv.slice(1), ...cmd.redirects.map((r) => (r.op === "<<<" ? r.target : (r.body ?? "")))].join("\n").slice(0, 1 << 16);
  const m = SQL_DESTROY.exec(text);
  return m === null ? undefined : `${p}: ${m[0].trim()}`;
}

/** ORM calls that delete every row of a model: `User.delete_all`, `User.objects.all().delete()`, `deleteMany({})`, `truncate: true`. */
export const ORM_WIPE = /\b[A-Z]\w*\.(?:delete_all|destroy_all)\b|\.objects\.all\(\)\.delete\(\)|\.deleteMany\(\s*(?:\{\s*\})?\s*\)|\btruncate\s*:\s*true\b|\.query\(\s*\w+\s*\)\.delete\(\)/;

/** Words of a framework's task runner that drop, empty or recreate the database it is configured for. */
const RAILS_TASK = /^db:(?:drop(?::all)?|reset|purge|migrate:reset|truncate_all)$/;
const ARTISAN_TASK = /^(?:migrate:fresh|migrate:reset|migrate:refresh|db:wipe)$/;
const MANAGE_TASK = /^(?:flush|reset_db|reset_schema)$/;

/**
 * A schema tool or framework told to drop or reset the database it is configured for (`prisma migrate reset`,
 * `drizzle-kit push --force`, `rails db:drop`, `manage.py flush`, `artisan migrate:fresh`, `flyway clean`,
 * `mysqladmin drop`, `supabase db reset --linked`, `serverless remove`): all rows go, wherever the database lives.
 */
function schemaReset(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if (dry(a) || a.includes("-h")) return undefined;
  const ops = operands(a);
  switch (p) {
    case "prisma":
      if (ops[0] === "migrate" && ops[1] === "reset") return "prisma migrate reset";
      return ops[0] === "db" && ops[1] === "push" && a.some((w) => w === "--force-reset" || w === "--accept-data-loss") ? "prisma db push --force-reset" : undefined;
    case "drizzle-kit":
      return ops[0] === "push" && a.some((w) => w === "--force" || w === "-f") ? "drizzle-kit push --force" : undefined;
    case "rails":
    case "rake": {
      // `rails runner 'User.delete_all'`: Ruby run against the app's database.
      if (p === "rails" && (ops[0] === "runner" || ops[0] === "r") && ORM_WIPE.test(ops.slice(1).join("\n"))) return "rails runner deletes every row of a model";
      const task = ops.find((w) => RAILS_TASK.test(w));
      return task === undefined ? undefined : `${p} ${task}`;
    }
    case "php":
      return /(?:^|\/)artisan$/.test(ops[0] ?? "") && ARTISAN_TASK.test(ops[1] ?? "") ? `artisan ${ops[1]}` : undefined;
    case "django-admin":
      return MANAGE_TASK.test(ops[0] ?? "") ? `django-admin ${ops[0]}` : undefined;
    case "sequelize":
    case "sequelize-cli":
      return ops[0] === "db:drop" ? `${p} db:drop` : undefined;
    case "typeorm":
    case "typeorm-ts-node-commonjs":
    case "typeorm-ts-node-esm":
      return ops[0] === "schema:drop" ? "typeorm schema:drop" : undefined;
    case "flyway":
      return ops.includes("clean") ? "flyway clean" : undefined;
    case "liquibase":
      return ops.some((w) => /^drop-?all$/i.test(w)) ? "liquibase drop-all" : undefined;
    case "dotnet":
      return ops[0] === "ef" && ops[1] === "database" && ops[2] === "drop" ? "dotnet ef database drop" : undefined;
    case "mysqladmin":
      return ops.some((w) => w === "drop") ? `mysqladmin drop ${ops[ops.indexOf("drop") + 1] ?? ""}` : undefined;
    case "supabase":
      return ops[0] === "db" && ops[1] === "reset" && a.some((w) => w === "--linked" || w.startsWith("--db-url")) ? "supabase db reset (a remote database)" : undefined;
    case "serverless":
    case "sls":
      return ops[0] === "remove" ? `${p} remove` : undefined;
    case "sam":
      return ops[0] === "delete" ? "sam delete" : undefined;
    default:
      // `python manage.py flush`: the script names the framework.
      if (/^python[0-9.]*$/.test(p) && /(?:^|\/)manage\.py$/.test(ops[0] ?? "") && MANAGE_TASK.test(ops[1] ?? "")) return `manage.py ${ops[1]}`;
      return undefined;
  }
}

export function infraEffects(cmd: SimpleCommand): Effect[] {
  const out: Effect[] = [];
  const del = remoteDelete(cmd) ?? serviceDelete(cmd) ?? databaseDestroy(cmd) ?? schemaReset(cmd);
  if (del !== undefined) out.push(effect("remote-delete", `deletes remote data or infrastructure (${del})`));
  const sec = containerSecret(cmd);
  if (sec !== undefined) out.push(effect("secret-read", sec));
  return out;
}
