#!/usr/bin/env bash
# Measures `tally fetch` against the hostile stand-in of server.py, for both stores:
#   bench/fetch-hostile/run.sh BINARY LABEL [CASE...]   → TSV lines: case store label exit seconds maxRSS-KB observation
# Long-running cases are cut by `timeout` (the before binary has no limits of its own).
set -u
BIN=$1; LABEL=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/fetch-hostile.XXXXXX)
CASES=${*:-redirect retry-after escapes echo endless trickle stall paginate dotdot slash foreign symlink sigint password plainhttp}
openssl ecparam -genkey -name prime256v1 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$W/key.p8" 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$W/rsa.pem" 2>/dev/null
PORT=$((20000 + RANDOM % 20000))

keyjson() { python3 -c "import json,sys; print(json.dumps({'type':'service_account','client_email':'t@p.iam.gserviceaccount.com','private_key':open('$W/rsa.pem').read(),'private_key_id':'k1','token_uri':'http://127.0.0.1:$1/token'}))" > "$W/sa.json"; }

args() { # store port output [api]
  local api=${4:-http://127.0.0.1:$2}
  if [ "$1" = asc ]; then echo "fetch app-store-connect --app 1600000001 --output $3 --api-url $api --key-id K1 --issuer-id I1 --private-key $W/key.p8"
  else echo "fetch google-play --package com.example.app --service-account $W/sa.json --output $3 --api-url $api"; fi
}

start() { # mode port record
  python3 "$HERE/server.py" "$1" "$2" "${3:-}" & SERVER=$!
  for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/$2) 2>/dev/null && return; sleep 0.1; done
}

measure() { # limit-seconds env... -- args...
  local limit=$1; shift
  /usr/bin/time -v -o "$W/time" timeout -k 3 "$limit" env TALLY_FETCH_BACKOFF_SCALE=0.01 "$@" > "$W/out" 2> "$W/err"
  EXIT=$?
  SECS=$(awk -F': ' '/Elapsed/ {print $2}' "$W/time")
  RSS=$(awk -F': ' '/Maximum resident/ {print $2}' "$W/time")
  [ "$EXIT" = 124 ] && EXIT="still running at ${limit}s (stopped)"
}

leftovers() { ls -a "$W/case" 2>/dev/null | grep -c "tally-" ; }
errline() { tr -d '\033\007' < "$W/err" | head -c 160 | tr '\n\t' '  '; }

for store in asc play; do
for c in $CASES; do
  PORT=$((PORT + 2)); rm -rf "$W/case" "$W/rec"; mkdir -p "$W/case"; keyjson $PORT
  OUT="$W/case/out"; OBS=""; EXTRA=""; ENVS=""
  case $c in
    redirect) start ok $((PORT + 1)) "$W/rec"; OTHER=$SERVER; start redirect:$((PORT + 1)) $PORT
      measure 30 $BIN $(args $store $PORT $OUT)
      OBS="other origin got $(cat "$W/rec" 2>/dev/null | grep -c .) requests, $(cat "$W/rec" 2>/dev/null | grep -ci authorization) with Authorization; $(errline)"
      kill $OTHER ;;
    retry-after) start retry-after $PORT; measure 30 $BIN $(args $store $PORT $OUT) $([ $LABEL = after ] && echo --timeout 20)
      OBS="staging left: $(leftovers); $(errline)" ;;
    escapes) start escapes $PORT; measure 30 $BIN $(args $store $PORT $OUT)
      OBS="ESC bytes on stderr: $(tr -cd '\033' < "$W/err" | wc -c), stderr $(wc -c < "$W/err") bytes" ;;
    echo) start echo $PORT; measure 30 $BIN $(args $store $PORT $OUT)
      OBS="credential on stderr: $(grep -c -e 'Bearer ey' -e 'ya29.c.TEST' "$W/err")" ;;
    endless) start endless $PORT; measure $([ $LABEL = before ] && echo 8 || echo 60) $BIN $(args $store $PORT $OUT)
      OBS="$(errline)" ;;
    trickle) start trickle $PORT
      if [ $LABEL = before ]; then measure 30 $BIN $(args $store $PORT $OUT); else measure 60 $BIN $(args $store $PORT $OUT) --timeout 20; fi
      OBS="$(errline)" ;;
    stall) start stall $PORT
      if [ $LABEL = before ]; then measure 30 $BIN $(args $store $PORT $OUT); else measure 60 $BIN $(args $store $PORT $OUT) --timeout 10; fi
      OBS="$(errline)" ;;
    paginate) start paginate $PORT "$W/rec"; measure 60 $BIN $(args $store $PORT $OUT)
      OBS="requests: $(grep -c . "$W/rec"); $(errline)" ;;
    dotdot|slash) start $c $PORT "$W/rec"; measure 30 $BIN $(args $store $PORT $OUT)
      OBS="paths asked: $(python3 -c "import json;print(' '.join(json.loads(l)['path'].split('?')[0] for l in open('$W/rec'))[-190:])"); $(errline)" ;;
    foreign) start ok $PORT; env TALLY_FETCH_BACKOFF_SCALE=0.01 $BIN $(args $store $PORT $OUT) > /dev/null 2>&1
      echo mine > "$OUT/notes.txt"; mkdir -p "$OUT/.git"; echo ref > "$OUT/.git/HEAD"
      measure 30 $BIN $(args $store $PORT $OUT)
      OBS="notes.txt kept: $([ -f "$OUT/notes.txt" ] && echo yes || echo NO), .git kept: $([ -f "$OUT/.git/HEAD" ] && echo yes || echo NO)" ;;
    symlink) start ok $PORT; mkdir -p "$W/case/real"; ln -s "$W/case/real" "$OUT"
      measure 30 $BIN $(args $store $PORT $OUT)
      OBS="output still a symlink: $([ -L "$OUT" ] && echo yes || echo NO)" ;;
    sigint) start stall $PORT  # SIGINT back to its default: a background job of a script starts with it ignored
      python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        $BIN $(args $store $PORT $OUT) > "$W/out" 2> "$W/err" & P=$!; sleep 2; kill -INT $P
      ( sleep 10; kill -KILL $P 2>/dev/null ) & K=$!; wait $P; EXIT=$?; kill $K 2>/dev/null; SECS="-"; RSS="-"
      OBS="staging folders left: $(leftovers); $(errline)" ;;
    password) start ok $PORT; measure 30 $BIN $(args $store $PORT $OUT http://proxyuser:s3cretpw@127.0.0.1:$PORT) --verbose
      OBS="password in snapshot files: $(grep -rl s3cretpw "$OUT" 2>/dev/null | wc -l), on stderr: $(grep -c s3cretpw "$W/err")" ;;
    plainhttp) start ok $PORT; measure 20 $BIN $(args $store $PORT $OUT http://192.0.2.1:9)
      OBS="$(errline)" ;;
  esac
  kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$store" "$LABEL" "$EXIT" "$SECS" "$RSS" "$OBS"
done
done
rm -rf "$W"
