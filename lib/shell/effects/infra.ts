/** @module remote and infrastructure effects: deleting buckets, clusters, stacks and volumes; secrets read from containers and clusters. */
import type { SimpleCommand } from "../types.ts";
import { effect, type Effect } from "./types.ts";
import { KUBECTL_VALUED, leadingPath, operandsPast, REDIS_VALUED } from "./services.ts";
import { isPythonName } from "../program-names.ts";

/**
 * Whether the command only previews: `--dry-run`, `--dryrun`, `--what-if`, `--preview-only`, `--help`, kubectl's
 * `--dry-run=client|server`. Read as options only: a preview word that is another option's value (`--kube-context
 * --dry-run`, `--cache-dir=--dry-run`), written after `--`, or turned off by a later `--dry-run=none|false` is none.
 */
function dry(a: readonly string[], valued: ReadonlySet<string> = NO_VALUES): boolean {
  let preview = false;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") break;
    if (w === "-help" || w === "--help") return true;
    if (w === "--dry-run" || w === "--dryrun" || w === "--what-if" || w === "--whatif" || w === "--preview-only") preview = true;
    else if (w.startsWith("--dry") && /^--dry-?run=/.test(w)) preview = !/^--dry-?run=(?:none|false|0|no)$/i.test(w);
    else if (!w.includes("=") && valued.has(w)) i++;
  }
  return preview;
}
const NO_VALUES: ReadonlySet<string> = new Set();

/** Operands: words that are not options (an option's value may slip in; only verbs and resource kinds are compared). */
function operands(a: string[]): string[] {
  return a.slice(1).filter((w) => !w.startsWith("-"));
}

const RECURSIVE = (a: string[]) => a.some((w) => w === "--recursive" || /^-[a-zA-Z]*[rR]$/.test(w) || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(w) && !w.startsWith("--"));

const AWS_DESTROY = /^(?:terminate-instances|delete-(?:objects|bucket|db-instance|db-cluster|table|stack|cluster|file-system|volume|nodegroup|repository|hosted-zone|log-group|global-table|domain|replication-group|cache-cluster|environment))$/;
const K8S_WIDE = /^(?:ns|namespaces?|projects?|pv|persistentvolumes?|pvc|persistentvolumeclaims?|crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?|nodes?|no|all|deploy|deployments?(?:\.apps)?|sts|statefulsets?(?:\.apps)?|ds|daemonsets?(?:\.apps)?|rs|replicasets?(?:\.apps)?)$/;
/** aws, az and gcloud global options that take no value (every other leading `--option` takes the next word). */
const CLOUD_FLAGS: ReadonlySet<string> = new Set(["--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request", "--no-cli-pager", "--no-cli-auto-prompt", "--quiet", "-q", "--verbose", "--only-show-errors", "--yes", "-y", "--no-wait", "--log-http", "--no-user-output-enabled"]);
/** Options of helm and compose that take a value, so that the subcommand is found after them. */
const HELM_VALUED: ReadonlySet<string> = new Set(["--description", "--kube-context", "-n", "--namespace", "--kubeconfig", "-f", "--values", "--set", "--set-string", "--version", "--repo", "--timeout", "--registry-config", "--repository-config", "--repository-cache"]);
const DOCKER_VALUED: ReadonlySet<string> = new Set(["--context", "-c", "-H", "--host", "--config", "--log-level", "-l", "--tlscacert", "--tlscert", "--tlskey", "--url", "--connection", "--identity", "--root", "--runroot", "--storage-driver", "--namespace", "-n", "--address", "-f", "--filter", "--format"]);
const COMPOSE_VALUED: ReadonlySet<string> = new Set(["-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "--ansi", "--parallel", "-c", "--context", "-H", "--host", "--log-level", "-t", "--timeout", "--rmi"]);
/** A kubectl `-f` that names more than one manifest: a directory, the current one, standard input. */
const MANY_MANIFESTS = (f: string) => f === "." || f === "-" || f.endsWith("/") || !/\.(?:ya?ml|json)$/i.test(f);

/** What a cloud, cluster or container CLI deletes beyond this machine, in a form that does not only list or plan. */
const REMOTE_TOOLS = new Set(["rclone", "aws", "gsutil", "gcloud", "az", "kubectl", "oc", "terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "helm", "docker", "podman", "nerdctl", "s3cmd", "mc", "eksctl", "heroku", "fly", "flyctl", "firebase", "docker-compose", "podman-compose", "glab", "virsh", "azcopy"]);

/** `compose down -v` deletes the project's named volumes; `compose rm -v` the containers' anonymous ones. */
function composeDelete(name: string, a: string[]): string | undefined {
  const verb = operandsPast(a, COMPOSE_VALUED)[0] ?? "";
  const volumes = a.some((w) => w === "--volumes" || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(w) && !w.startsWith("--"));
  return (verb === "down" || verb === "rm") && volumes ? `${name} ${verb} --volumes` : undefined;
}

function remoteDelete(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  // Most commands are none of these: one set lookup, before any scan of the words.
  // `-h` is help to all of them but gsutil (a header there).
  if (!REMOTE_TOOLS.has(p) || dry(a, p === "kubectl" || p === "oc" ? KUBECTL_VALUED : p === "helm" ? HELM_VALUED : NO_VALUES) || (p !== "gsutil" && a.includes("-h"))) return undefined;
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
      // `aws --profile prod ec2 terminate-instances`: the command path past the global options and their values.
      const path = leadingPath(a, CLOUD_FLAGS);
      if (path[path.length - 1] === "help") return undefined;
      const [svc = "", action = ""] = path;
      if (svc === "s3" && action === "rm" && RECURSIVE(a)) return `aws s3 rm --recursive ${path[2] ?? ""}`;
      if (svc === "s3" && action === "rb") return `aws s3 rb ${path[2] ?? ""}`;
      if (svc === "s3" && action === "rm" && (path[2] ?? "").startsWith("s3://")) return "aws s3 rm";
      if (svc === "s3" && action === "sync" && a.includes("--delete") && path.slice(2).some((w) => w.startsWith("s3://"))) return "aws s3 sync --delete into a bucket";
      // Athena runs the SQL it is given: a DROP or an unfiltered DELETE there drops the table.
      if (svc === "athena" && action === "start-query-execution") {
        const k = a.indexOf("--query-string");
        const q = k > 0 ? (a[k + 1] ?? "") : (a.find((w) => w.startsWith("--query-string="))?.slice(15) ?? "");
        return SQL_DESTROY.test(q) ? "aws athena runs a DROP/TRUNCATE/DELETE" : undefined;
      }
      return AWS_DESTROY.test(action) || /^(?:batch-)?(?:delete|purge|terminate|deregister)-[\w-]+$|^schedule-key-deletion$|^disable-key$/.test(action) ? `aws ${svc} ${action}` : undefined;
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
      const path = leadingPath(a, CLOUD_FLAGS);
      if (path[0] === "storage" && path[1] === "rm" && RECURSIVE(a)) return `gcloud storage rm -r ${path[2] ?? ""}`;
      // Any group's `delete` (instances, topics, zones, record sets, services...) deletes it in the project; the
      // local configuration and credentials groups only forget settings.
      const del = path.findIndex((w) => w === "delete" || w === "bulk-delete");
      if (del > 0 && !/^(?:config|auth|components|topic)$/.test(path[0] ?? "")) return `gcloud ${path.slice(0, del + 1).join(" ")}`;
      return undefined;
    }
    case "az": {
      const path = leadingPath(a, CLOUD_FLAGS);
      if (path.includes("delete-batch")) return `az ${path.slice(0, path.indexOf("delete-batch") + 1).join(" ")}`;
      // `az account subscription cancel`, `az account management-group subscription remove`: a subscription ended or detached.
      const del = path.findIndex((w, k) => w === "delete" || w === "purge" || ((w === "cancel" || w === "remove") && path[k - 1] === "subscription"));
      // `az deployment group delete` only deletes a deployment's record; local configuration and extensions are no data.
      if (del > 0 && path[0] !== "deployment" && !/^(?:config|extension|cache|configure)$/.test(path[0] ?? "")) return `az ${path.slice(0, del + 1).join(" ")}`;
      return undefined;
    }
    case "kubectl":
    case "oc": {
      const kops = operandsPast(a, KUBECTL_VALUED);
      const kverb = kops[0] ?? "";
      // `apply --force` deletes and recreates what it applies; `--prune` deletes what the manifests no longer name.
      if (kverb === "apply" && (a.includes("--force") || a.includes("--prune"))) return `${p} apply ${a.includes("--force") ? "--force" : "--prune"}`;
      if (kverb !== "delete") return undefined;
      const kinds = kops.slice(1).flatMap((w) => w.split(",")).map((w) => w.replace(/\/.*$/, "").toLowerCase());
      if (a.includes("--all") || a.includes("-A") || a.includes("--all-namespaces")) return `${p} delete --all`;
      // A kustomization, a directory, standard input or a recursive walk: every resource the manifests name.
      if (a.some((w) => w === "-k" || w.startsWith("-k") || w === "--kustomize" || w.startsWith("--kustomize=") || w === "--recursive" || w === "-R")) return `${p} delete of a kustomization or a tree of manifests`;
      const files = a.flatMap((w, k) => (w === "-f" || w === "--filename" ? [a[k + 1] ?? ""] : w.startsWith("--filename=") ? [w.slice(11)] : /^-f./.test(w) ? [w.slice(2)] : []));
      if (files.some(MANY_MANIFESTS)) return `${p} delete -f ${files.join(" ")}`;
      // `--force --grace-period=0`: killed at once, no shutdown, finalizers skipped.
      if (a.includes("--force") && a.some((w, k) => w === "--grace-period=0" || (w === "--grace-period" && a[k + 1] === "0") || w === "--now")) return `${p} delete --force --grace-period=0`;
      // `... | xargs kubectl delete`, `kubectl delete $KIND x`: a kind of unknown value may be a namespace.
      const kindAt = kops[1] === undefined ? -1 : a.indexOf(kops[1]);
      if ((cmd.stdinArgs && kinds.length === 0) || (kindAt > 0 && cmd.dynamic[kindAt])) return `${p} delete of what its input names`;
      const wide = kinds.find((k) => K8S_WIDE.test(k));
      return wide === undefined ? undefined : `${p} delete ${wide}`;
    }
    case "terraform":
    case "tofu":
    case "terragrunt": {
      const t = verb === "run-all" || verb === "run" ? ops.slice(1) : ops;
      const tv = t[0] ?? "";
      if (tv === "destroy") return `${p} destroy`;
      if (tv === "apply" && (a.includes("-destroy") || a.includes("--destroy"))) return `${p} apply -destroy`;
      // Applied without the confirmation it asks for, a plan's deletes and replacements happen unseen.
      if (tv === "apply" && a.some((w) => w === "-auto-approve" || w === "--auto-approve" || w === "-auto-approve=true")) return `${p} apply -auto-approve`;
      if (tv === "state" && /^(?:rm|remove)$/.test(t[1] ?? "")) return `${p} state rm (the resources stop being managed)`;
      if (tv === "taint") return `${p} taint (destroyed and recreated at the next apply)`;
      if (tv === "workspace" && t[1] === "delete") return `${p} workspace delete`;
      if (tv === "force-unlock") return `${p} force-unlock`;
      return undefined;
    }
    case "pulumi": {
      const yes = a.some((w) => w === "-y" || w === "--yes" || w === "--skip-preview" || /^-[a-zA-Z]*y[a-zA-Z]*$/.test(w) && !w.startsWith("--"));
      if (verb === "destroy" || (verb === "stack" && ops[1] === "rm") || (verb === "state" && /^(?:delete|unprotect)$/.test(ops[1] ?? ""))) return `pulumi ${verb} ${ops[1] ?? ""}`;
      // `up -y`/`refresh -y` apply whatever the preview would have shown, deletes and replacements included.
      return (verb === "up" || verb === "update" || verb === "refresh") && yes ? `pulumi ${verb} --yes` : undefined;
    }
    case "cdk":
    case "cdktf":
    case "serverless":
    case "sls":
      return verb === "destroy" ? `${p} ${verb}` : undefined;
    case "helm": {
      const hops = operandsPast(a, HELM_VALUED);
      const hv = hops[0] ?? "";
      if (/^(?:uninstall|delete|del|un)$/.test(hv) && hops.length > 1) return `helm ${hv} ${hops[1]}`;
      if (hv === "rollback") return `helm rollback ${hops[1] ?? ""}`;
      // `upgrade --force` deletes and recreates the release's resources; `--reset-values` drops the values set before.
      return hv === "upgrade" && (a.includes("--force") || a.includes("--reset-values")) ? `helm upgrade ${a.includes("--force") ? "--force" : "--reset-values"}` : undefined;
    }
    case "docker":
    case "podman":
    case "nerdctl": {
      // `docker --context prod system prune`, `docker -H ssh://host volume rm x`: the subcommand past the global options.
      const dops = operandsPast(a, DOCKER_VALUED);
      const verb = dops[0] ?? "";
      const ops = dops;
      if (verb === "compose") return composeDelete(`${p} compose`, a.slice(a.indexOf("compose")));
      // Every stopped container, unused network and image of the machine (all projects'), and with --volumes their data.
      if (verb === "system" && (ops[1] === "prune" || ops[1] === "reset")) return `${p} system ${ops[1]}`;
      if (verb === "volume" && (ops[1] === "rm" || ops[1] === "remove" || ops[1] === "prune")) return `${p} volume ${ops[1]}`;
      if ((verb === "container" || verb === "network" || verb === "pod") && ops[1] === "prune") return `${p} ${verb} prune`;
      // Swarm: a stack or service removed takes down every replica; a secret or config removed is gone; a node leaves.
      if ((verb === "stack" || verb === "service" || verb === "secret" || verb === "config" || verb === "node") && /^(?:rm|remove|down)$/.test(ops[1] ?? "")) return `${p} ${verb} ${ops[1]}`;
      if (verb === "swarm" && ops[1] === "leave") return `${p} swarm leave`;
      if (verb === "pod" && (ops[1] === "rm" || ops[1] === "remove") && a.some((w) => w === "--all" || /^-[a-zA-Z]*a[a-zA-Z]*$/.test(w) && !w.startsWith("--"))) return `${p} pod rm --all`;
      // A dangling-image prune clears a cache; `-a` deletes every image no container uses.
      if (verb === "image" && ops[1] === "prune" && a.some((w) => w === "-a" || w === "--all" || /^-[a-zA-Z]*a[a-zA-Z]*$/.test(w) && !w.startsWith("--"))) return `${p} image prune --all`;
      // `docker rm -f $(docker ps -aq)`, `docker ps -aq | xargs docker rm -f`, `podman rm -a`: every container, not a named one.
      const rm = verb === "rm" || (verb === "container" && (ops[1] === "rm" || ops[1] === "remove"));
      if (rm && (cmd.stdinArgs || a.some((w, k) => k > a.indexOf("rm") && cmd.dynamic[k]) || a.some((w) => w === "--all" || /^-[a-zA-Z]*a[a-zA-Z]*$/.test(w) && !w.startsWith("--")))) return `${p} rm of every container`;
      return undefined;
    }
    case "s3cmd":
      return (verb === "del" || verb === "rm" || verb === "rb") && RECURSIVE(a) ? `s3cmd ${verb} --recursive` : undefined;
    case "mc":
      // `mc admin bucket remote rm`, `mc admin user remove`: an admin subcommand that removes configuration or users.
      return (verb === "rm" && RECURSIVE(a)) || (verb === "rb" && a.includes("--force")) || (verb === "admin" && ops.slice(1, 4).some((w) => w === "rm" || w === "remove")) ? `mc ${verb} ${ops[1] ?? ""}` : undefined;
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
    case "podman-compose":
      return composeDelete(p, a);
    default:
      return undefined;
  }
}

/**
 * Service CLIs that hold data elsewhere (secret stores, backups, queues, search, CI, hosting) and the subcommand words
 * that destroy it there: one of the first three operands (`vault kv destroy`, `restic forget`, `nats stream rm`).
 * Listing, reading and creating forms share the program and not the verb.
 */
/** The verbs a cloud or SaaS CLI deletes with: `hcloud server delete`, `oci compute instance terminate`, `etcdctl del`. */
const SERVICE_DESTROY = /^(?:(?:permanent-|force-|bulk-)?delete|del|rm|remove|destroy|terminate|purge|delete-all)$/;
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
  ["gh", /^(?:delete|remove|archive)$/],
  ["jenkins-cli", /^delete-\w+$/],
  ["doctl", /^(?:delete|rm|d)$/],
  ["wrangler", /^delete$/],
  ["vercel", /^(?:rm|remove)$/],
  ["netlify", /^sites:delete$/],
  ["supabase", /^delete$/],
  ["infisical", /^delete$/],
  ["algolia", /^(?:delete|clear|rm)$/],
  ["fastly", /^delete$/],
  ["glab", /^(?:delete|archive)$/],
  ["railway", /^(?:down|delete)$/],
  ["deck", /^reset$/],
  ["splunk", /^(?:remove|clean)$/],
  ["bq", /^rm$/],
  ["mysqladmin", /^drop$/],
  ...["newrelic", "hcloud", "linode-cli", "openstack", "oci", "ibmcloud", "vultr-cli", "exo", "civo", "upctl", "scw", "atlas", "mongocli", "confluent", "rpk", "pulsar-admin", "avn", "auth0", "okta", "stripe", "sentry-cli", "render", "koyeb", "northflank", "etcdctl", "consul", "databricks", "influx", "snowflake", "planetscale", "upstash"].map((c): [string, RegExp] => [c, SERVICE_DESTROY]),
  ["cf", /^(?:delete(?:-[\w-]+)?|purge-service-offering)$/],
  ["neonctl", /^delete$/],
  ["pscale", /^delete$/],
  ["turso", /^destroy$/],
]);
/** Kafka's admin tools delete with a flag: `kafka-topics --delete`, `kafka-consumer-groups --delete`, `kafka-acls --remove`. */
const KAFKA = /^kafka-(topics|consumer-groups|acls|delete-records)(?:\.sh)?$/;
const HTTP_CLIENTS = new Set(["curl", "wget", "http", "https", "xh", "xhs"]);
/** Endpoints that delete whatever method reaches them: Elasticsearch/OpenSearch delete-by-query, Jenkins' doDelete. */
/** Ports of data stores with an HTTP API (Elasticsearch/OpenSearch, Meilisearch, CouchDB, InfluxDB, Qdrant, Typesense, Solr, ArangoDB). */
const STORE_PORTS = new Set(["9200", "9201", "7700", "5984", "8086", "6333", "8108", "8983", "8529", "8001", "8444"]);
const DELETE_ENDPOINT = /\/_delete_by_query\b|\/doDelete\b/;

/** A GraphQL mutation that deletes (`mutation { deleteRepository(..) }`, `purgeX`, `destroyY`) in a request body or field. */
function graphqlDelete(a: readonly string[]): boolean {
  return a.some((w) => /\bmutation\b[\s\S]*\b(?:delete|destroy|purge|remove)[A-Z_]\w*\s*\(/.test(w));
}

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
  // A GraphQL API deletes with a mutation in the body, whatever the method: `mutation { deleteEntity(..) }`.
  if (/\/graphql\b/.test(target) && graphqlDelete(a)) return `${cmd.program} graphql delete mutation ${target}`;
  const endpoint = DELETE_ENDPOINT.test(target);
  if (method.toUpperCase() !== "DELETE" && !endpoint) return undefined;
  // A developer's own server on this machine (`curl -X DELETE localhost:8080/api/items/1`) runs; a data store's
  // index, collection or everything in it (`localhost:9200/_all`, `/indexes/x`, `*`) does not, wherever it is.
  const local = /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(\d+))?(?:\/|$)/.exec(target);
  if (local && !endpoint && !STORE_PORTS.has(local[1] ?? "") && !/\/_all\b|\*|\/indexes\/|\/collections\/|\/_snapshot\/|\/_data_stream\/|\/apis?\/v\d|\/apis\//.test(target)) return undefined;
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
  if ((p === "gh" || p === "glab") && a.includes("api")) {
    // `gh api -X DELETE repos/o/r/...`, `gh api -XDELETE`, `glab api --method=DELETE projects/1`
    const k = a.findIndex((w) => w === "-X" || w === "--method");
    const m = k > 0 ? a[k + 1] : (a.find((w) => w.startsWith("--method="))?.slice(9) ?? a.find((w) => /^-X[A-Za-z]+$/.test(w))?.slice(2));
    if (m?.toUpperCase() === "DELETE") return `${p} api DELETE`;
    return graphqlDelete(a) ? `${p} api graphql delete mutation` : undefined;
  }
  // Rails consoles of a GitLab instance: `gitlab-rails runner 'Project.destroy_all'`, `gitlab-rake db:drop`.
  if (p === "gitlab-rails" && a[1] === "runner" && /\b(?:destroy_all|delete_all|destroy!?|delete|truncate|drop)\b/.test(a.slice(2).join(" "))) return "gitlab-rails runner deletes records";
  if (p === "gitlab-rake" && a.some((w) => /^(?:gitlab:)?(?:backup:restore|db:(?:drop|reset|schema:load|setup))$/.test(w))) return `gitlab-rake ${a.find((w) => /:(?:restore|drop|reset|load|setup)$/.test(w))}`;
  // Every name it matches starts so: the others never reach the regex.
  const kafka = p.startsWith("kafka-") ? KAFKA.exec(p) : null;
  if (kafka) {
    if (dry(a) || a.includes("--list") || a.includes("--describe")) return undefined;
    return kafka[1] === "delete-records" || a.includes("--delete") || (kafka[1] === "acls" && a.includes("--remove")) ? `${p} deletes ${kafka[1] === "acls" ? "ACLs" : "topics, groups or records"}` : undefined;
  }
  const verbs = SERVICE_VERBS.get(p);
  if (verbs === undefined || dry(a) || a.includes("-h")) return undefined;
  // restic and borg: -n is their dry run.
  if ((p === "restic" || p === "borg") && a.some((w) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w) && !w.startsWith("--"))) return undefined;
  const words = operands(a);
  // gh's extensions and aliases are local: `gh extension remove x` uninstalls a plugin.
  if (p === "gh" && /^(?:extension|extensions|ext|alias|config|auth)$/.test(words[0] ?? "")) return undefined;
  // The verb is one of the first words of the command path; a global option's value may come first (`-p prod`).
  const verb = words.slice(0, 4).find((w) => verbs.test(w));
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

export const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "mongo", "mongosh", "cockroach", "clickhouse-client", "sqlcmd", "redis-cli", "valkey-cli", "cqlsh", "snowsql", "bq", "sqlite3", "sqlite", "duckdb", "mysqlsh", "pgcli", "mycli", "litecli", "usql", "turso", "d1", "trino", "presto", "beeline", "hive", "spark-sql", "impala-shell", "vsql", "sqlplus", "isql"]);
/** Programs that print their arguments or a heredoc: what they pipe into a database client is the statement it runs. */
const PRINTERS = new Set(["echo", "printf", "cat"]);
/** Statements that drop or empty a database, a schema or a table: DELETE with no WHERE is as good as TRUNCATE. */
export const SQL_DESTROY = /\bdrop\s+(?:database|schema|table|keyspace|user|role)\b|\balter\s+table\s+[\w."`]+\s+drop\s+(?:if\s+exists\s+)?(?:partition|column)\b|\breset\s+master\b|\btruncate\s+(?:table\s+)?\w|\bdelete\s+from\s+[\w."`]+\s*(?:;|$)|\bflushall\b|\bflushdb\b|\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\bdb\.\w+\.drop\s*\(|\.dropCollection\s*\(|\.(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/im;

/** A database client told to drop or empty what it is connected to (`psql -c 'DROP DATABASE x'`, `redis-cli FLUSHALL`, `dropdb x`). */
function databaseDestroy(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if (p === "dropdb") return `dropdb ${operands(a)[0] ?? ""}`;
  // Restores that drop what they restore over: `pg_restore --clean -d db`, `mongorestore --drop`.
  if (p === "pg_restore") return a.some((w) => w === "--clean" || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w) && !w.startsWith("--")) && a.some((w) => w === "-d" || w.startsWith("--dbname") || /^-d./.test(w)) && !a.some((w) => w === "-l" || w === "--list") ? "pg_restore --clean drops the objects it restores" : undefined;
  if (p === "mongorestore") return a.includes("--drop") ? "mongorestore --drop drops the collections it restores" : undefined;
  // `echo 'DROP DATABASE x;' | psql`, `printf 'FLUSHALL' | redis-cli`: the printed text is the statement.
  if (PRINTERS.has(p) && cmd.pipeTo.some((t) => SQL_CLIENTS.has(t))) {
    const printed = [...a.slice(1), ...cmd.redirects.map((r) => (r.op === "<<<" ? r.target : (r.body ?? "")))].join("\n").slice(0, 1 << 16);
    const m = SQL_DESTROY.exec(printed);
    return m === null ? undefined : `${p} into ${cmd.pipeTo.find((t) => SQL_CLIENTS.has(t))}: ${m[0].trim()}`;
  }
  if (!SQL_CLIENTS.has(p)) return undefined;
  if (p === "redis-cli" || p === "valkey-cli") {
    const [c = "", arg = ""] = operandsPast(a, REDIS_VALUED).map((w) => w.toUpperCase());
    // CONFIG SET dir/dbfilename points the next save at any file (a crontab, authorized_keys): a known takeover.
    if (c === "CONFIG" && arg === "SET" && /^(?:dir|dbfilename|replicaof|slaveof)$/i.test(operandsPast(a, REDIS_VALUED)[2] ?? "")) return `${p} CONFIG SET ${operandsPast(a, REDIS_VALUED)[2]}`;
    // `redis-cli --scan --pattern 'x:*' | xargs redis-cli DEL`: every key a listing names.
    if ((c === "DEL" || c === "UNLINK") && (cmd.stdinArgs || a.some((_, k) => cmd.dynamic[k]))) return `${p} ${c} of every key a listing names`;
  }
  // The statement can be an argument (-c, -e, --eval, a redis command) or standard input (<<<, a heredoc).
  const text = [...cmd.argv.slice(1), ...cmd.redirects.map((r) => (r.op === "<<<" ? r.target : (r.body ?? "")))].join("\n").slice(0, 1 << 16);
  const m = SQL_DESTROY.exec(text);
  return m === null ? undefined : `${p}: ${m[0].trim()}`;
}

/** Options of `docker run` that take a value, so that the image and the command after it are found. */
const RUN_VALUED = /^(?:-[vepuwlhmc]|--(?:volume|env|env-file|publish|user|workdir|name|label|hostname|memory|mount|network|net|entrypoint|platform|cpus|add-host|device|cap-add|cap-drop|security-opt|restart|ulimit|tmpfs|volumes-from|log-driver|log-opt|pull|gpus|ipc|pid|dns|shm-size|stop-signal|cidfile|runtime|userns|expose|link|group-add|sysctl))$/;

/**
 * `docker run --rm redis redis-cli -h cache FLUSHALL` (or `compose run`): a container's files are its own, but the services it reaches
 * over the network are the host's. The command after the image, judged for what it deletes in a service.
 */
function containerReach(cmd: SimpleCommand): string | undefined {
  const a = cmd.argv;
  const compose = cmd.program === "docker-compose" || cmd.program === "podman-compose";
  if (compose ? a[1] !== "run" : !((cmd.program === "docker" || cmd.program === "podman" || cmd.program === "nerdctl") && (a[1] === "run" || ((a[1] === "container" || a[1] === "compose") && a[2] === "run")))) return undefined;
  // `docker compose run --rm db dropdb -h db app`: a service's one-off container, reaching the others as a run does.
  let i = compose ? 2 : a[1] === "container" || a[1] === "compose" ? 3 : 2;
  while (i < a.length && (a[i] ?? "").startsWith("-")) i += !(a[i] ?? "").includes("=") && RUN_VALUED.test(a[i] ?? "") ? 2 : 1;
  const words = a.slice(i + 1);
  if (words.length === 0) return undefined;
  const inner: SimpleCommand = { ...cmd, argv: words, dynamic: cmd.dynamic.slice(i + 1), program: (words[0] ?? "").replace(/^.*\//, ""), redirects: [] };
  return remoteDelete(inner) ?? serviceDelete(inner) ?? databaseDestroy(inner);
}

/** ORM calls that delete every row of a model: `User.delete_all`, `User.objects.all().delete()`, `deleteMany({})`, `truncate: true`. */
export const ORM_WIPE = /\b[A-Z]\w*\.(?:delete_all|destroy_all)\b|\.objects\.all\(\)\.delete\(\)|\.deleteMany\(\s*(?:\{\s*\})?\s*\)|\btruncate\s*:\s*true\b|\.query\(\s*\w+\s*\)\.delete\(\)/;

/** Words of a framework's task runner that drop, empty or recreate the database it is configured for. */
const RAILS_TASK = /^db:(?:drop(?::all)?|reset|purge|migrate:reset|truncate_all)$/;
const ARTISAN_TASK = /^(?:migrate:fresh|migrate:reset|migrate:refresh|db:wipe)$/;
const MANAGE_TASK = /^(?:flush|reset_db|reset_schema)$/;
/** The programs schemaReset's switch has a case for (python, its default, is tested apart). */
const SCHEMA_TOOLS: ReadonlySet<string> = new Set(["prisma", "drizzle-kit", "rails", "rake", "php", "django-admin", "sequelize", "sequelize-cli", "typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm", "alembic", "knex", "goose", "dbmate", "migrate", "flyway", "liquibase", "dotnet", "mysqladmin", "supabase", "serverless", "sls", "sam", "vagrant"]);

/**
 * A schema tool or framework told to drop or reset the database it is configured for (`prisma migrate reset`,
 * `drizzle-kit push --force`, `rails db:drop`, `manage.py flush`, `artisan migrate:fresh`, `flyway clean`,
 * `mysqladmin drop`, `supabase db reset --linked`, `serverless remove`): all rows go, wherever the database lives.
 */
function schemaReset(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  // Most commands are none of the switch's programs (nor python): no scan of their words.
  if (!SCHEMA_TOOLS.has(p) && !isPythonName(p)) return undefined;
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
      return ops[0] === "db:drop" || ops[0] === "db:migrate:undo:all" ? `${p} ${ops[0]}` : undefined;
    case "typeorm":
    case "typeorm-ts-node-commonjs":
    case "typeorm-ts-node-esm":
      return ops[0] === "schema:drop" ? "typeorm schema:drop" : undefined;
    // Migrations run back to nothing undo every table they made: `alembic downgrade base`, `knex migrate:rollback --all`.
    case "alembic":
      return ops.includes("downgrade") && ops[ops.indexOf("downgrade") + 1] === "base" ? "alembic downgrade base" : undefined;
    case "knex":
      return ops[0] === "migrate:rollback" && a.includes("--all") ? "knex migrate:rollback --all" : undefined;
    case "goose":
      return ops.includes("reset") ? "goose reset" : undefined;
    case "dbmate":
      return ops[0] === "drop" ? "dbmate drop" : undefined;
    case "migrate":
      // golang-migrate's `-path`/`-database` values come before the verb.
      return ops.includes("drop") || (ops.includes("down") && a.some((w) => w === "-all" || w === "--all")) ? "migrate drop or down -all" : undefined;
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
    // A development VM's disks go with it.
    case "vagrant":
      return ops[0] === "destroy" ? "vagrant destroy" : undefined;
    default:
      // `python manage.py flush`: the script names the framework.
      if (isPythonName(p) && /(?:^|\/)manage\.py$/.test(ops[0] ?? "") && MANAGE_TASK.test(ops[1] ?? "")) return `manage.py ${ops[1]}`;
      // `manage.py migrate accounts zero`: every migration of the app unapplied, its tables dropped.
      if (isPythonName(p) && /(?:^|\/)manage\.py$/.test(ops[0] ?? "") && ops[1] === "migrate" && ops[3] === "zero") return `manage.py migrate ${ops[2] ?? ""} zero`;
      return undefined;
  }
}

export function infraEffects(cmd: SimpleCommand): Effect[] {
  const out: Effect[] = [];
  const del = remoteDelete(cmd) ?? serviceDelete(cmd) ?? databaseDestroy(cmd) ?? schemaReset(cmd) ?? containerReach(cmd);
  if (del !== undefined) out.push(effect("remote-delete", `deletes remote data or infrastructure (${del})`));
  const sec = containerSecret(cmd);
  if (sec !== undefined) out.push(effect("secret-read", sec));
  return out;
}
