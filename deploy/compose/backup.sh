#!/bin/sh
# smsq's backups (the backup service of docker-compose.yml runs it as /usr/local/bin/smsq-backup).
# Connection from libpq's variables: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE.
#   smsq-backup schedule              a backup every SMSQ_BACKUP_INTERVAL_S seconds (86400), keeping the newest SMSQ_BACKUP_KEEP (14)
#   smsq-backup now                   one backup now, pruned the same way; prints its file
#   smsq-backup restore FILE [DB]     FILE into a fresh database; DB (default PGDATABASE), if it exists, is renamed aside first
#   smsq-backup check                 fails when the newest backup is older than the interval and an hour (the healthcheck)
# Files: SMSQ_BACKUP_DIR (/backups)/smsq-<UTC time>.dump, pg_dump's custom format.
set -eu
dir=${SMSQ_BACKUP_DIR:-/backups}
interval=${SMSQ_BACKUP_INTERVAL_S:-86400}
keep=${SMSQ_BACKUP_KEEP:-14}
database=${PGDATABASE:-smsq}

log() { echo "smsq-backup: $*" >&2; }

case "$interval$keep" in *[!0-9]*) log "SMSQ_BACKUP_INTERVAL_S and SMSQ_BACKUP_KEEP must be whole numbers"; exit 64 ;; esac
[ "$keep" -ge 1 ] && [ "$interval" -ge 60 ] || { log "SMSQ_BACKUP_KEEP must be 1 or more and SMSQ_BACKUP_INTERVAL_S 60 or more"; exit 64; }

newest() { ls -1 "$dir"/smsq-*.dump 2>/dev/null | sort | tail -n 1; }

backup_now() {
  mkdir -p "$dir"
  file="$dir/smsq-$(date -u +%Y%m%dT%H%M%SZ).dump"
  # Written under another name first, so that a file named *.dump is always a whole dump.
  if ! pg_dump --format=custom --dbname="$database" --file="$file.partial"; then
    rm -f -- "$file.partial"
    log "pg_dump failed; nothing was written"
    return 1
  fi
  mv "$file.partial" "$file" || return 1
  ls -1 "$dir"/smsq-*.dump | sort -r | tail -n +"$((keep + 1))" | while read -r old; do rm -f -- "$old"; done
  log "wrote $file ($(du -h "$file" | cut -f1)); keeping the newest $keep"
  echo "$file"
}

sql() { PGOPTIONS="-c client_min_messages=warning" psql --no-psqlrc --quiet --tuples-only --no-align -v ON_ERROR_STOP=1 --dbname=postgres "$@"; }

restore() {
  file=$1
  target=${2:-$database}
  [ -f "$file" ] || { log "no such file: $file"; exit 1; }
  staging="${target}_restoring"
  # A restore that failed half-way left its staging database behind: it is nobody's data.
  echo 'DROP DATABASE IF EXISTS :"staging";' | sql -v staging="$staging"
  echo 'CREATE DATABASE :"staging";' | sql -v staging="$staging"
  # Owners and grants are left out: smsq's services take their schemas over again when they start,
  # so the dump restores the same on a new server, whose database roles do not exist yet.
  pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname="$staging" "$file"
  if [ "$(echo "SELECT count(*) FROM pg_database WHERE datname = :'target';" | sql -v target="$target")" = 1 ]; then
    aside="${target}_before_restore_$(date -u +%Y%m%dT%H%M%SZ)"
    echo 'ALTER DATABASE :"target" RENAME TO :"aside";' | sql -v target="$target" -v aside="$aside"
    log "the database $target was renamed $aside (drop it once the restored one is right)"
  fi
  echo 'ALTER DATABASE :"staging" RENAME TO :"target";' | sql -v staging="$staging" -v target="$target"
  log "restored $file into $target"
}

case "${1:-}" in
  schedule)
    log "a backup every $interval s into $dir, keeping the newest $keep"
    while :; do
      last=$(newest)
      # After a restart the schedule goes on from the newest backup, rather than taking one at every start.
      wait=0
      if [ -n "$last" ]; then wait=$((interval - ($(date +%s) - $(stat -c %Y "$last")))); fi
      if [ "$wait" -gt 0 ]; then sleep "$wait"; fi
      if ! backup_now >/dev/null; then
        log "the backup failed; trying again in 5 minutes"
        sleep 300
      fi
    done
    ;;
  now) backup_now ;;
  restore)
    [ $# -ge 2 ] || { log "usage: smsq-backup restore FILE [DATABASE]"; exit 64; }
    restore "$2" "${3:-}"
    ;;
  check)
    last=$(newest)
    [ -n "$last" ] || { log "no backup in $dir yet"; exit 1; }
    age=$(($(date +%s) - $(stat -c %Y "$last")))
    [ "$age" -le "$((interval + 3600))" ] || { log "the newest backup, $last, is $age s old"; exit 1; }
    ;;
  *) log "usage: smsq-backup schedule | now | restore FILE [DATABASE] | check"; exit 64 ;;
esac
