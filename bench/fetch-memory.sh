#!/usr/bin/env bash
# Peak memory of `tally fetch app-store-connect` against a local endless body (server.py's
# `endless` mode: 64 KiB writes as fast as Python can, on 127.0.0.1), before and after, interleaved:
#   bench/fetch-memory.sh BEFORE_BINARY AFTER_BINARY [RUNS] [CAP...]
# RUNS per binary and cap (default 3); CAP is TALLY_FETCH_MAX_RESPONSE_BYTES, or `default` for the
# built-in 64 MiB (default: 1048576 default). Prints TSV: cap label run exit seconds maxRSS-KB stderr.
# Each run is cut by `timeout` at 60 s; peak memory is /usr/bin/time -v's "Maximum resident set size".
set -u
BEFORE=$1; AFTER=$2; RUNS=${3:-3}; shift $(( $# < 3 ? $# : 3 ))
CAPS=${*:-1048576 default}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/fetch-memory.XXXXXX)
trap 'kill $SERVER 2>/dev/null; rm -rf "$W"' EXIT
openssl ecparam -genkey -name prime256v1 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$W/key.p8" 2>/dev/null
PORT=$((20000 + RANDOM % 20000))
python3 "$HERE/fetch-hostile/server.py" endless $PORT & SERVER=$!
for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done

printf 'cap\tlabel\trun\texit\tseconds\tmaxRSS-KB\tstderr\n'
for cap in $CAPS; do
  for run in $(seq "$RUNS"); do
    for label in before after; do
      BIN=$BEFORE; [ $label = after ] && BIN=$AFTER
      rm -rf "$W/out"
      ENVS="TALLY_FETCH_BACKOFF_SCALE=0.01"; [ "$cap" != default ] && ENVS="$ENVS TALLY_FETCH_MAX_RESPONSE_BYTES=$cap"
      /usr/bin/time -v -o "$W/time" timeout -k 3 60 env $ENVS "$BIN" fetch app-store-connect --app 1600000001 --output "$W/out" \
        --api-url http://127.0.0.1:$PORT --key-id K1 --issuer-id I1 --private-key "$W/key.p8" > /dev/null 2> "$W/err"
      EXIT=$?
      SECS=$(awk -F': ' '/Elapsed/ {print $2}' "$W/time")
      RSS=$(awk -F': ' '/Maximum resident/ {print $2}' "$W/time")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cap" "$label" "$run" "$EXIT" "$SECS" "$RSS" "$(tr -d '\033\007' < "$W/err" | head -c 140 | tr '\n\t' '  ')"
    done
  done
done
