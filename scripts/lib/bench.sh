# Sourced by the scripts/bench* scripts (from the repository root): one way to build, start, feed and
# stop the `cards` server (and a throwaway PostgreSQL cluster) under a benchmark.
#
# Sets: $bin (the release `cards`, or $BIN: a build to measure instead, e.g. an older commit's), $work (a temporary directory, removed at exit), $key (an API key of
# the client `bench`), $pid (the last server `serve` started). At exit every server, helper process
# and cluster started here is stopped.

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/cards-target}"
bin="${BIN:-$CARGO_TARGET_DIR/release/cards}"

rand_hex() { head -c "${1:-16}" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
key="bench_$(rand_hex 16)"
# The keys `serve` gives a server (CARDS_API_KEYS); empty: none (keys from the store only).
api_keys="$key=bench"
work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/cards-bench.XXXXXX")
# PostgreSQL runs as `nobody` when we are root, and writes beneath it.
chmod 755 "$work"
pid=""
pids=()

# needs TOOL...: exits with a hint when a tool is missing.
needs() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || { echo "needs $t (apt-get install $t)" >&2; exit 1; }
  done
}

# build PACKAGE...: the release build of those packages (host-native not when $BIN is given).
build() {
  local args=() p
  for p in "$@"; do
    if [ "$p" = host-native ] && [ -n "${BIN:-}" ]; then continue; fi
    args+=(-p "$p")
  done
  if [ "${#args[@]}" -gt 0 ]; then cargo build -q --release "${args[@]}"; fi
}

freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Runs a command as the user PostgreSQL runs as (it refuses root).
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }

# serve NAME PORT [FLAGS...]: `cards serve --listen 127.0.0.1:PORT FLAGS` ($SERVE_BIN, default $bin) with
# $api_keys, no rate limits, RUST_LOG=warn unless set; stdout and stderr in $work/NAME.out and
# $work/NAME.err. Waits (up to 30 s: a big data file opens slowly) until GET /health answers; sets $pid.
serve() {
  local name=$1 port=$2 env=()
  shift 2
  [ -n "$api_keys" ] && env=(CARDS_API_KEYS="$api_keys")
  env "${env[@]}" CARDS_READ_RATE=0 CARDS_WRITE_RATE=0 RUST_LOG="${RUST_LOG:-warn}" \
    "${SERVE_BIN:-$bin}" serve --listen "127.0.0.1:$port" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && return
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name did not start" >&2
  cat "$work/$name.err" >&2
  exit 1
}

# stop [PID]: SIGTERM to a server (default: the last one started) and wait for its graceful end, so
# its closing lines (group commit summary, timings) are in its output.
stop() {
  local p=${1:-$pid} keep=() q
  [ -n "$p" ] || return 0
  kill -TERM "$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
  for q in "${pids[@]}"; do [ "$q" = "$p" ] || keep+=("$q"); done
  pids=("${keep[@]}")
  [ "$p" = "$pid" ] && pid=""
  return 0
}

# stop_all: every server and helper process started so far.
stop_all() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  pid=""
}

# call URL [CURL ARGS...]: a request with $key (CALL_KEY overrides) and a JSON content type.
call() { curl -sf -H "x-api-key: ${CALL_KEY:-$key}" -H 'content-type: application/json' "$@"; }
id_of() { python3 -c 'import sys,json; print(json.load(sys.stdin)["data"]["_id"])'; }
# total_of URL: the `meta.total` of a list (GET through `call`).
total_of() { call "$1" | python3 -c 'import sys,json; print(json.load(sys.stdin)["meta"]["total"])'; }

# card_fixtures API [BALANCE] [CARD AMOUNT]: an account holding BALANCE (default 1000000000), a holder
# and an active virtual card on it, funded with CARD AMOUNT (default none), as $CALL_KEY or $key.
# Sets $acct, $holder, $card.
card_fixtures() {
  local api=$1 balance=${2:-1000000000} amount=${3:-}
  acct=$(call "$api/accounts" -d "{\"ownerType\":\"business\",\"name\":\"Bench\",\"type\":\"checking\",\"category\":\"fiat\",\"currency\":\"USD\",\"balance\":$balance}" | id_of)
  holder=$(call "$api/card-holders" -d '{"name":"B","person":{"firstName":"B","lastName":"C","email":"b@c.io","phoneNumber":"+15555550100"}}' | id_of)
  card=$(call "$api/cards" -d "{\"debitAccountId\":\"$acct\",\"cardHolderId\":\"$holder\",\"type\":\"virtual\",\"brand\":\"Visa\",\"status\":\"active\"${amount:+,\"amount\":$amount}}" | id_of)
}

# pg_start [SETTINGS...]: a throwaway PostgreSQL cluster in $work/pg (initdb, then pg_ctl; durable
# defaults), as `nobody` when root; extra server settings as `-c name=value`. Sets $pgbin, $pgport.
pg_start() {
  pgbin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
  [ -x "$pgbin/initdb" ] || { echo "needs PostgreSQL (apt-get install postgresql)" >&2; exit 1; }
  pgport=$(freeport)
  mkdir "$work/pg"
  [ "$(id -u)" = 0 ] && chown nobody "$work/pg"
  (cd "$work" && as_pg "$pgbin/initdb" -D "$work/pg" -U cards --auth=trust -E UTF8 >/dev/null)
  (cd "$work" && as_pg "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w \
    -o "-p $pgport -k $work/pg -c listen_addresses=127.0.0.1 -c max_connections=200 $*" start >/dev/null)
}

# pg_newdb NAME: a new database on the cluster; prints its URL.
pg_newdb() {
  "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U cards "$1"
  echo "postgres://cards@127.0.0.1:$pgport/$1"
}

# pg_stop: stops the cluster (a no-op when none runs).
pg_stop() {
  if [ -f "$work/pg/postmaster.pid" ]; then as_pg "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true; fi
}

bench_cleanup() {
  stop_all
  pg_stop
  rm -rf "$work"
}
trap bench_cleanup EXIT
