/** `statehouse --help`, and the hint after a wrong command. */
export const USAGE = `Usage: statehouse <command> [options]

Commands:
  serve [--demo]                      Start the HTTP service (with --demo: create demo data and print how to call it)
  migrate                             Apply database migrations and exit
  demo [--json]                       Create the demo platform and legal entities, print a fresh demo API key (revokes the old one)
  platforms create <name> [--json]    Create a platform and print its API key (shown once)
  platforms list [--json]             List platforms
  platforms keys list <platform_id> [--json]
  platforms keys rotate <platform_id> [--json]   Issue an additional key (revoke the old one when clients have moved)
  platforms keys revoke <key_id> [--json]
  platforms set-version <platform_id> <YYYY-MM-DD> [--json]  The platform's default API version (Statehouse-Version; docs/versions.md)
  platforms callbacks list <platform_id> [--json]            Allowed callback origins (none: any callback URL in development, none in production)
  platforms callbacks add <platform_id> <origin> [--json]    e.g. https://app.acme.com, or myapp:// for an app's deep links
  platforms callbacks remove <platform_id> <origin>
  platforms brand <platform_id> [--name <text>] [--accent <#hex>] [--logo <png|jpeg file>] [--clear name|accent|logo] [--json]
                                      The hosted pages' display name, accent colour (4.5:1 against white) and logo (≤ 100 KB); no option: show it
  catalog list [--region CA] [--json]  List the compliance catalog's requirements (--region US: the federal ones)
  catalog explain <legal_entity_id> [--json]   Which requirements apply to an entity and why; every due date and its rule
  catalog release --title "…" [--notes "…"] [--id YYYY.MM.DD-N] [--date YYYY-MM-DD] [--dry-run] [--json]
                                      Cut a catalog release: the changes since the latest release, written to catalog/releases/
                                      (the release file, digests.json, CHANGELOG.md; docs/catalog-releases.md)
  catalog diff <from> <to|current> [--json]   What changed between two releases (current: the catalog as it is now)
  catalog impact [--against <release>] [--json]   How many entities would gain or lose which tasks if planned with this
                                      catalog now (read-only); --against: only the requirements changed since that release
  catalog export [--format json|csv] [--out <file>]   Every requirement with its criteria, schedule, agency, fee and
                                      sources: the open dataset (docs/catalog-dataset.md)
                                      (release, diff, impact, export: --catalog <dir> reads another catalog directory)
  import <file> --platform <id> [--format csv|jsonl] [--json]   Import a book of businesses (docs/imports.md); exit 1 when rows failed
  tasks roll-forward                  Plan every entity's tasks 12 months ahead now (the daily job plans only those due)
  operators keys create <name> [--json]   Create an operator API key (/operator/v1; shown once)
  operators keys list [--json]
  operators keys revoke <key_id>
  operators login --key-id <key_id|name> [--json]   A one-time link signing a browser in to the back office (/operator; 10 min)
  operators audit [--legal-entity <id>] [--key-id <id>] [--action <a>] [--limit <n>] [--before <event_id>] [--json]
                                          The operator audit trail, newest first
  console invite --platform <platform_id> --email <address> [--role admin|developer|read_only] [--json]
                                      A one-time link (24 h) with which a person chooses a password for the platform
                                      console (/console); --role defaults to admin (the first admin)
  accounts create <legal_entity_id> --region CA --agency ca-edd --name "…" [--data name=value …] [--json]
                                      Record an agency account of a legal entity (agency ids: catalog/regions/XX.yaml)
  logins reencrypt [--json]           After a vault key rotation: re-seal every secret (login secrets, instance keys,
                                      automations' sensitive inputs, calendar URLs) with the current (first) key; also upgrades
                                      older login-secret bindings
  vault reencrypt [--json]            The same as logins reencrypt
  tokens rotate-key                   A new access-token signing key; the previous one still verifies what it signed
                                      (restart the servers afterwards; see docs/security.md)
  logins reveals [--entity <legal_entity_id>] [--platform <platform_id>] [--json]   Audit trail of credential views
  logins create <legal_entity_id> --region CA --name "…" --url https://… [--account <agency_account_id>] [--supported] [--json]
                                      Record a login; its secrets are read from stdin as JSON
                                      {"username", "password", "security_answers"?: [{question, answer}], "totp_seed"?}
                                      and stored encrypted (never pass them as arguments)
  mail upload --entity <legal_entity_id> --file <path.pdf> [--region CA] [--type registered-agent|external-mail]
              [--sender "…"] [--subject "…"] [--received YYYY-MM-DD] [--json]
                                      Record mail received for a legal entity; the PDF is stored in STATEHOUSE_DATA_DIR/files
                                      (type defaults to registered-agent, received to today in UTC)
  mail list --entity <legal_entity_id> [--json]   The entity's mail, newest received first
  mail gc [--json]                    Remove stored files no mail item refers to (left by a crash mid-upload; older than 1 hour)
  webhooks list [--platform <platform_id>] [--json]   Webhook endpoints of every platform (or of one)
  webhooks add <platform_id> <url> [--event-type <type>]... [--description "…"] [--json]
                                      Add an endpoint (same rules as the API); prints its signing secret once
  webhooks disable <endpoint_id> [--reason "…"]   Stop deliveries to it (the reason is shown to the platform)
  webhooks enable <endpoint_id>       Deliver again, forgetting its failures
  webhooks delete <endpoint_id>       Delete it; its pending deliveries are not attempted

Configuration comes from the environment: PORT, HOST, STATEHOUSE_DATA_DIR, DATABASE_URL, PUBLIC_BASE_URL,
LOG_LEVEL, LOG_FORMAT, STATEHOUSE_ENV (or NODE_ENV), ACCESS_TOKEN_TTL_SECONDS, SIGNUP_SESSION_TTL_SECONDS, HOSTED_SESSION_TTL_SECONDS, DATABASE_POOL_SIZE,
BODY_LIMIT_BYTES, STATEHOUSE_VAULT_KEY, MAIL_MAX_BYTES, FILE_URL_TTL_SECONDS, SANDBOX_CONNECTOR_STEP_MS, METRICS_TOKEN,
AUTOMATION_SANDBOX, AUTOMATION_SANDBOX_STEP_MS, AUTOMATION_CONNECTOR_TIMEOUT_MS, AUTOMATION_MAX_ATTEMPTS, AUTOMATION_RETRY_BASE_MS,
RATE_LIMIT_WINDOW_SECONDS, RATE_LIMIT_PER_CREDENTIAL, RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_AUTH_OPERATIONS, RATE_LIMIT_FAILED_AUTH,
SHED_EVENT_LOOP_DELAY_MS, SHED_EVENT_LOOP_UTILIZATION, SHED_HEAP_USED_SHARE (see README).`;
