#!/bin/sh
# Writes deploy/compose/.env for docker-compose.yml beside it: the domain, and fresh random
# passwords for PostgreSQL, RabbitMQ and Redis and the dashboard's secret. Never overwrites one.
#   ./make-env.sh --domain sms.example.com [--profile A|B] [--out FILE]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/.env"
domain=""
profile="A"
usage() { echo "usage: $0 --domain sms.example.com [--profile A|B] [--out FILE]" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --domain) [ $# -ge 2 ] || usage; domain=$2; shift 2 ;;
    --profile) [ $# -ge 2 ] || usage; profile=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$domain" ] || usage
# A host name Caddy can get a certificate for: letters, digits, dots and dashes, no scheme or path.
if ! printf '%s' "$domain" | grep -Eq '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$'; then
  echo "--domain must be a host name such as sms.example.com, got '$domain'" >&2
  exit 64
fi
case "$profile" in A|B) ;; *) echo "--profile must be A or B, got '$profile'" >&2; exit 64 ;; esac
if [ -e "$out" ]; then
  echo "$out exists; it holds the passwords the data was created with, so it is never overwritten (move it away first if you really mean to)" >&2
  exit 1
fi
# Hex: nothing in it needs escaping in a URL, a shell or YAML.
secret() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }
umask 077
tmp="$out.tmp.$$"
cat > "$tmp" <<ENV
# Written by make-env.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ). Keep it secret and keep it: PostgreSQL and
# RabbitMQ take their passwords from here only when their volumes are first created.
COMPOSE_PROJECT_NAME=smsq-prod
SMSQ_DOMAIN=$domain
SMSQ_PROFILE=$profile
POSTGRES_PASSWORD=$(secret)
RABBITMQ_PASSWORD=$(secret)
REDIS_PASSWORD=$(secret)
DASHBOARD_SECRET=$(secret)
# Backups: one every SMSQ_BACKUP_INTERVAL_S seconds, the newest SMSQ_BACKUP_KEEP kept.
SMSQ_BACKUP_INTERVAL_S=86400
SMSQ_BACKUP_KEEP=14
# SMPP: the port clients bind to (published by smsq, and shown to clients by the dashboard).
SMSQ_SMPP_PORT=2775
# Password reset mail (optional): SMSQ_SMTP_URL=smtps://user:password@mail.example.com and SMSQ_MAIL_FROM="smsq <no-reply@example.com>"
SMSQ_SMTP_URL=
SMSQ_MAIL_FROM=
ENV
mv "$tmp" "$out"
echo "wrote $out"
