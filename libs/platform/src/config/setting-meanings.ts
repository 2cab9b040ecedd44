/**
 * What each environment variable means, in one place: `npm run docs` (scripts/docs-reference.mjs)
 * puts these beside the name, default and range it records from the services' own configuration
 * readers, in docs/reference/configuration.md. It fails when a variable read has no meaning here,
 * or when this names a variable nothing reads. Defaults and ranges come from the code, so a meaning
 * says neither, except a default the code computes outside the reader ("unset: …").
 */
export const SETTING_MEANINGS: Record<string, string> = {
  // Every service
  SMSQ_PROFILE: '`A`: clients pair their own phones and have daily plans. `B`: an admin registers pooled gateways, and clients have persistent credits.',
  SMSQ_NAMESPACE: 'Prefix of queue names and Redis keys, so several smsq installations can share a broker and a Redis: letters, digits, `_` or `-`, at most 41.',
  DATABASE_URL: "PostgreSQL; the database is created if missing, and each service keeps to a schema of its own, as a role of its own when this URL's user is a superuser (docs/decisions/0006-a-postgres-role-per-service.md).",
  AMQP_URL: 'RabbitMQ, which carries the requests and events between the services.',
  SMSQ_QUEUE_TYPE: '`quorum`: the service queues and their dead-letter queues are quorum queues, replicated across a clustered RabbitMQ. Set the same in every process, the admin command line too (docs/decisions/0011-quorum-queues.md).',
  REDIS_URL: 'Redis: caches, rate limits and the signals that wake long polls.',
  SMSQ_LOG_FORMAT: 'How log lines are written: `json` for a log collector, `text` for a person.',
  SMSQ_LOG_LEVEL: "`debug` also shows the framework's start-up detail (each module loaded, route mapped, migration applied).",
  SMSQ_RPC_TIMEOUT_MS: 'How long a request from one service to another over RabbitMQ may take before the caller gives up on it.',
  SMSQ_STUCK_LIMIT_S: "`/healthz` answers 503 (restart me) once a dependency has answered fresh connections this long while the service's own kept failing; never while a dependency is down (docs/decisions/0013-readiness-and-liveness.md).",
  NODE_ENV: '`production` makes the JSON log format the default, requires `DASHBOARD_SECRET`, keeps password reset links out of the log unless `DASHBOARD_RESET_LINKS_IN_LOG` asks for them, and requires a `DASHBOARD_PASSWORD_COST` of at least 10.',

  // Each service's own database role and HTTP port
  GATEWAY_DATABASE_URL: "The API gateway's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  BILLING_DATABASE_URL: "Billing's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  DISPATCH_DATABASE_URL: "Dispatch's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  INBOX_DATABASE_URL: "The inbox's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  SMPP_DATABASE_URL: "The SMPP service's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  DASHBOARD_DATABASE_URL: "The dashboard's own database user, for when `DATABASE_URL`'s user cannot create roles.",
  PORT: "The public API's HTTP port (with `/healthz`, `/readyz`, `/metrics`); the dashboard reads it for its default `DASHBOARD_PUBLIC_API_URL`.",
  BILLING_PORT: "Billing's HTTP port: `/healthz`, `/readyz`, `/metrics`.",
  DISPATCH_PORT: "Dispatch's HTTP port: `/healthz`, `/readyz`, `/metrics`.",
  INBOX_PORT: "The inbox's HTTP port: `/healthz`, `/readyz`, `/metrics`.",
  SMPP_HTTP_PORT: "The SMPP service's HTTP port: `/healthz`, `/readyz`, `/metrics`.",
  DASHBOARD_PORT: 'The dashboard: its web pages and their back end.',
  GATEWAY_SIM_PORT: "The simulator's HTTP port.",

  // Creating tasks (the API and SMPP)
  SMSQ_TIMEZONE: 'An IANA time zone: that of clients created without one, of times that belong to no client, and whose days count the daily limits of gateways and of phones without an owner.',
  SMSQ_DEFAULT_REGION: 'Profile B: the two-letter country a recipient (or a reply sender) without a country code is read in; unset, such a number is refused.',
  SMSQ_RATE_LIMIT_RPS: 'Requests per second per API key, and `submit_sm` per SMPP credential; bursts may reach twice that; `0` turns the limit off.',
  SMSQ_CREATE_TIMEOUT_MS: 'How long a create waits for dispatch before it settles the outcome itself.',
  SMSQ_CREATE_BATCHES_IN_FLIGHT: 'A create goes to dispatch at once while fewer batches than this are on their way, and waits for the next batch otherwise (docs/decisions/0021-creates-in-batches.md).',

  // Billing
  SMSQ_DAILY_PERIOD_S: 'Profile A: the length of one daily credit period.',
  SMSQ_SETTLE_AFTER_S: 'A debit whose task is still unknown this long after it was made is settled with dispatch: kept or refunded.',

  // Dispatch
  SMSQ_CLAIM_TIMEOUT_S: 'A claimed task not reported within this long goes back to the queue (its lease ran out).',
  SMSQ_MAX_ATTEMPTS: 'Claims of one task before it fails for good, refunded once.',
  SMSQ_TASK_MAX_AGE_S: 'A task whose client gave no `ttl` or `expires_at` expires this long after it is due; `0`: it waits for a phone however long that takes.',
  SMSQ_WEBHOOK_ALLOW_PRIVATE: 'Webhooks may go to loopback and private addresses (private networks, tests); otherwise such an address is refused after resolving.',
  SMSQ_PHONE_SILENT_S: 'A phone with no contact for this long is `silent`: routing passes it by and moves its waiting tasks. Must be more than the 30 s long-poll cap.',
  SMSQ_PAUSE_STEPS_S: 'How long a phone the carrier refused for volume is paused, the first time and on each repeat within a day: 1 to 10 positive seconds, comma-separated; the last step repeats.',

  // Retention
  SMSQ_RETENTION_INTERVAL_S: 'How often each service prunes what it keeps only for a while.',
  SMSQ_RETENTION_OUTBOX_S: 'A published outbox row (dispatch, inbox) is deleted this long after it was published; unpublished ones never.',
  SMSQ_RETENTION_WEBHOOK_S: 'A `delivered` or `failed` webhook delivery is deleted this long after its last attempt; `pending` ones never.',
  SMSQ_RETENTION_IDEMPOTENCY_S: "How long an `Idempotency-Key`'s answer is replayed; its record is deleted after that. Must be more than `SMSQ_CREATE_TIMEOUT_MS` + 2 × `SMSQ_RPC_TIMEOUT_MS` + 2 s.",
  SMSQ_RETENTION_PASSWORD_RESET_S: 'An unused password reset is deleted this long after it expired.',
  SMSQ_TASK_RETENTION_DAYS: 'Finished tasks (and their SMPP submissions) are deleted this many days after they were sent or failed, unless a pending webhook still needs them, and replies this many days after they arrived; unset: kept for ever.',

  // SMPP
  SMSQ_SMPP_PORT: 'Where SMPP clients bind (plain TCP); the dashboard shows it with the SMPP credentials.',
  SMSQ_SMPP_TLS_PORT: 'SMPP over TLS, when `SMSQ_SMPP_TLS_CERT` and `SMSQ_SMPP_TLS_KEY` are set.',
  SMSQ_SMPP_TLS_CERT: 'The PEM certificate for SMPP over TLS; set with `SMSQ_SMPP_TLS_KEY`, or neither.',
  SMSQ_SMPP_TLS_KEY: 'The PEM private key for SMPP over TLS; set with `SMSQ_SMPP_TLS_CERT`, or neither.',
  SMSQ_SMPP_HOST: 'The address both SMPP ports listen on.',
  SMSQ_SMPP_ENQUIRE_S: 'A bind quiet this long is sent `enquire_link`, and closed when it stays quiet as long again.',
  SMSQ_SMPP_KEEP_S: 'How long a receipt or a reply waits for a receiver bind before it is dropped.',
  SMSQ_SMPP_PART_WAIT_S: 'The parts of a long message must all arrive within this long; otherwise the message is refused whole.',

  // The dashboard
  DASHBOARD_SECRET: 'Signs the CSRF tokens, at least 32 characters; required in production, random per process otherwise.',
  DASHBOARD_PUBLIC_API_URL: 'The API address users are shown and the pairing QR code carries: one the phones can reach (the pairing card warns about a loopback one). Unset: `SMSQ_BASE_URL`, else `http://localhost:$PORT`.',
  DASHBOARD_PUBLIC_URL: 'Where users reach the dashboard, for the links it sends (a password reset); required in production with `SMSQ_SMTP_URL`. Unset: `http://localhost:$DASHBOARD_PORT`.',
  SMSQ_SMTP_URL: "The mail server password reset links are sent through (`smtp://user:pass@host:587`); unset, they go to the dashboard's log (see `DASHBOARD_RESET_LINKS_IN_LOG`).",
  SMSQ_MAIL_FROM: 'The sender of that mail, such as `smsq <no-reply@example.com>`; required with `SMSQ_SMTP_URL`.',
  DASHBOARD_RESET_LINKS_IN_LOG: 'Without SMTP, write password reset links to the log. In production it must be asked for: whoever reads the logs could take any account.',
  DASHBOARD_TRUST_PROXY: "The reverse proxies in front of the dashboard (addresses or CIDRs, comma-separated): their `X-Forwarded-For` gives the client's address to the sign-in and reset throttles. Unset: the connection's address, so behind a proxy every client shares one limit.",
  DASHBOARD_SESSION_IDLE_S: 'A dashboard session ends after this long without a request.',
  DASHBOARD_SESSION_MAX_S: 'A dashboard session ends this long after sign-in, whatever happens.',
  DASHBOARD_PASSWORD_COST: "bcrypt's work factor for passwords set from now on; each step doubles a sign-in's check. Other costs keep working and are rehashed at sign-in. At least 10 in production.",
  DASHBOARD_WORKER_FILE: "The worker file offered at `/downloads/smsq-worker.mjs`, when it exists. Unset: the worker's build, `apps/worker/dist/smsq-worker.mjs`.",
  DASHBOARD_WEB_DIR: "The dashboard's built web pages. Unset: `apps/dashboard-web/dist`.",

  // Addresses of smsq
  SMSQ_BASE_URL: "smsq's public API address: where the worker and the simulator reach it (the worker's from pairing when unset), and the dashboard's `DASHBOARD_PUBLIC_API_URL` when that is unset.",

  // The worker
  WORKER_TOKEN: 'A worker token, instead of pairing (Profile B); unset: the paired one.',
  WORKER_DRIVER: 'How the worker reaches its phone: `smsgate` (SMS Gateway for Android), `termux` (on the phone) or `http` (a generic gateway). Unset: the paired one, else `http`.',
  WORKER_STATE_DIR: 'Where the paired phone (`phone.json`), the stored passphrase and the reply cursors are kept.',
  WORKER_WAIT_S: 'Long-poll seconds asked of `pending-tasks`.',
  WORKER_CONCURRENCY: 'Poll loops running side by side, each delivering one task at a time.',
  WORKER_CLAIM_LIMIT: "The most tasks one claim takes; unset: what the phone sends in a claim's window at its pace.",
  WORKER_SEND_TIMEOUT_MS: 'One send to a generic HTTP gateway, or one request to a phone.',
  WORKER_SENDS_PER_MINUTE: 'SMS parts a minute per phone (`0`: unpaced); the upper bound of a pace smsq sets for the phone (`per_minute`).',
  WORKER_SEND_JITTER_MS: "The longest random extra pause between sends while paced; a `jitter` smsq sets for the phone comes first.",
  WORKER_SIM: "The SIM to send from (1, 2, …) when the task names none; unset: the phone's default.",
  WORKER_TERMUX_TIMEOUT_S: 'How long a Termux:API program may take before the worker gives up on it (they hang when the Termux:API app is missing).',
  WORKER_HEALTH_INTERVAL_S: "How often the phone's battery and connection are reported to smsq; `0`: never.",
  WORKER_STOP_GRACE_S: 'After Ctrl-C, how long the phone may take to settle the SMS in hand before it is left to the lease.',
  WORKER_PASSPHRASE: "The client's passphrase, to open encrypted messages, taken exactly as given; never sent to smsq. Unset: `WORKER_PASSPHRASE_FILE`, else the one `pair --passphrase` stored.",
  WORKER_PASSPHRASE_FILE: 'A file holding that passphrase (its final line break dropped); not with `WORKER_PASSPHRASE`.',
  WORKER_ENCRYPT_REPLIES: 'Seal received replies with the passphrase before posting them to smsq (needs the passphrase).',
  SMSGATE_URL: "The phone app's address, for replies and health, when the worker is not on the phone; unset: the paired `--gateway-url`.",
  SMSGATE_USER: "The SMS Gateway app's Local Server user; required with the `smsgate` driver.",
  SMSGATE_PASSWORD: "The SMS Gateway app's Local Server password; required with the `smsgate` driver.",
  SMSGATE_DELIVERY_REPORTS: 'Ask the carrier for delivery reports.',
  SMSGATE_TTL_MARGIN_S: "The app gives up on an SMS this long before smsq's claim lapses.",
  SMSGATE_INBOX_POLL_S: "How often the app's inbox is read for replies.",
  SMSGATE_WEBHOOK_PORT: "Receive the app's webhooks on this port; unset: no receiver, replies are pulled.",
  SMSGATE_WEBHOOK_HOST: 'The address the webhook receiver listens on.',
  SMSGATE_WEBHOOK_URL: 'Where the app reaches the receiver: a base, the path is `/smsgate/events`.',
  SMSGATE_WEBHOOK_SIGNING_KEY: "The app's webhook signing key, to check its signatures; unset: not checked.",

  // npm start
  SMSQ_DEMO: '`npm start` seeds a demo client on an empty database, and runs the simulator and a worker to deliver its messages.',
  SMSQ_PROCESSES: '`npm start`: `one` runs the API, billing, dispatch, inbox, SMPP and the dashboard in one Node process (about 200 MB instead of about 1 GB); `many` runs a process for each, as when they are scaled out.',

  // The gateway simulator (tests, demos)
  GATEWAY_SIM_MODE: "`generic`: the simulator's own `/send` API; `smsgate`: the Local Server API of SMS Gateway for Android.",
  GATEWAY_SIM_FAILURE_RATE: 'The chance, from 0 to 1, that a send fails (502 in generic mode). Unset: 0.1.',
  GATEWAY_SIM_FAILURE_RETRY: "Generic mode: a failed send says `\"retry\": true`, the gateway's word that nothing was sent.",
  GATEWAY_SIM_REPLY_RATE: 'The chance, from 0 to 1, that a sent SMS gets a simulated reply; above 0 in generic mode needs `GATEWAY_SIM_WORKER_TOKEN`. Unset: 0.',
  GATEWAY_SIM_WORKER_TOKEN: "A worker token to post the generic mode's replies to smsq's `/smsapi/inbound` with.",
  GATEWAY_SIM_SMSGATE_USER: "The simulated phone's Local Server user.",
  GATEWAY_SIM_SMSGATE_PASSWORD: "The simulated phone's Local Server password.",
  GATEWAY_SIM_SMSGATE_DEVICE_ID: "The simulated phone's device id: 1 to 36 letters, digits, `_` or `-`.",
  GATEWAY_SIM_SMSGATE_PENDING_MS: 'How long each message waits at the head of the queue before the phone hands it to the radio.',
  GATEWAY_SIM_SMSGATE_SENT_MS: 'From the radio taking a message to its sent (or failed) report.',
  GATEWAY_SIM_SMSGATE_DELIVERED_MS: 'From sent to the delivery report.',
  GATEWAY_SIM_SMSGATE_HOLD: 'Start with the queue held: every message stays pending until `POST /sim/hold {"hold": false}`.',
  GATEWAY_SIM_SMSGATE_HANG: 'Start hung: no request of the app\'s API is answered until `POST /sim/hang {"hang": false}`.',
  GATEWAY_SIM_SMSGATE_PROCESSING_ORDER: 'Which pending message goes first among equal priorities (the app itself defaults to LIFO).',
  GATEWAY_SIM_SMSGATE_FAILURE: "How a send fails at `GATEWAY_SIM_FAILURE_RATE`: the app's generic failure, or its word that nothing was sent.",
  GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER: "After this many SMS sent, every further send fails as Android's limit exceeded; unset: never.",
  GATEWAY_SIM_SMSGATE_SIM_COUNT: 'Active SIM cards; a message for a higher SIM fails as on a phone without it.',
  GATEWAY_SIM_SMSGATE_INSECURE: 'The app\'s "insecure" build: webhooks to any http:// URL, not only https:// and http://127.0.0.1.',
  GATEWAY_SIM_SMSGATE_SIGNING_KEY: 'Signs webhook bodies (`X-Signature`, `X-Timestamp`); unset: unsigned.',
  GATEWAY_SIM_SMSGATE_WEBHOOK_RETRIES: 'Retries of a webhook the receiver did not take.',
  GATEWAY_SIM_SMSGATE_WEBHOOK_RETRY_MS: 'The pause before each webhook retry.',
  GATEWAY_SIM_SMSGATE_LEGACY_EXPORT: 'As apps before 1.65.2: an inbox export sends `sms:received` again for SMS the app already saw.',
  GATEWAY_SIM_SMSGATE_BATTERY_LEVEL: "The simulated phone's battery, in percent.",
  GATEWAY_SIM_SMSGATE_BATTERY_CHARGING: 'Whether the simulated phone is charging.',
  GATEWAY_SIM_SMSGATE_CONNECTED: 'Whether the simulated phone has a connection.',
  GATEWAY_SIM_SMSGATE_UTC_OFFSET: "The phone's UTC offset, `Z` or like `+03:00`; the app writes its dates in the phone's time zone. Unset: `Z`.",
};
