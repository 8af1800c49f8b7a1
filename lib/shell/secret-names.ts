/** @module the words of a variable name that say it holds a credential, shared by every reader of names (one list, one meaning). */
import { lazyMatcher } from "./lazy-regexp.ts";

/**
 * `GITHUB_TOKEN`, `PGPASSWORD`, `DB_PASS`, `GH_PAT`, `SSH_PASSPHRASE`, `DATABASE_URL`, `MONGODB_URI`, `SENTRY_DSN`,
 * `SLACK_WEBHOOK_URL`, `AZURE_STORAGE_CONNECTION_STRING`, `DEPLOY_KEY`, `SIGNING_KEY`: a token, a password or a URL with one in it. `MAX_TOKENS`,
 * `TOKENIZER_PATH`, `OLDPWD`, `API_URL` are not (a word must end where the credential word ends).
 */
export const SECRET_NAME_CORE = String.raw`(?:SECRET|TOKEN(?![A-Za-z])|PASSWORD|PASSWD|PASSPHRASE|_PASS(?![A-Za-z])|_PWD(?![A-Za-z])|API_?KEY|PRIVATE_KEY|(?:DEPLOY|SSH|SIGNING|GPG|ENCRYPTION|MASTER|LICENSE)_KEY(?![A-Za-z_])|ACCESS_KEY|CREDENTIAL|_PAT(?![A-Za-z])|CONNECTION_?STRING|WEBHOOK_URL|(?:DATABASE|DB|REDIS|MONGO(?:DB)?|POSTGRES(?:QL)?|PG|MYSQL|AMQP|RABBITMQ|BROKER)_(?:URL|URI|DSN)|_DSN(?![A-Za-z]))`;

/** A whole variable name that holds a credential (no `$`). */
export const SECRET_NAME = lazyMatcher(() => new RegExp(String.raw`^[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*$`, "i"));

/** A reference to one in shell or PowerShell text: `$GITHUB_TOKEN`, `${NPM_TOKEN}`, `$env:OPENAI_API_KEY`. */
export const SECRET_VAR = lazyMatcher(() => new RegExp(String.raw`\$\{?(?:env:)?[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*\}?`, "i"));

/** cmd's `%GITHUB_TOKEN%`. */
export const CMD_SECRET_VAR = lazyMatcher(() => new RegExp(String.raw`%[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*%`, "i"));

/** Interpreter code reading one: `os.environ['GITHUB_TOKEN']`, `process.env.NPM_TOKEN`, `getenv("DB_PASS")`, `ENV["X_SECRET"]`. */
export const ENV_SECRET = lazyMatcher(() => new RegExp(String.raw`(?:environ|ENV|env|getenv)\W{1,3}[A-Za-z_]*${SECRET_NAME_CORE}`, "i"));

/** A search pattern aimed at credentials in a listing of variables: `env | grep -i token`, `set | grep -E 'pass|pwd'`, a provider whose variables are keys (`printenv | grep -i aws`; not `npm_`, whose variables are npm's own settings). */
export const SECRET_PATTERN = /secret|token|passw|pass\b|pass\||pwd|api_?key|\bkey|_key|private|credential|database|_ur[li]\b|dsn|connection|webhook|_pat\b|\baws|azure|openai|anthropic|stripe|\bhf_|hugging/i;
