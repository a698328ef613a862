#!/usr/bin/env bash
# Several `shadowtable serve` processes on one PostgreSQL database behind nginx (docs/deploy.md).
#
#   scripts/cluster.sh                       # 3 processes on 8001-8003, nginx on 127.0.0.1:8000
#   scripts/cluster.sh -n 2 --port 9000 --database postgresql://postgres@127.0.0.1:5432/mine
#   scripts/cluster.sh -- --bot-delay 0      # everything after -- goes to every `shadowtable serve`
#
# Options:
#   -n, --processes N     server processes (default 3)
#   --port PORT           nginx's port (default 8000); --host HOST its address (default 127.0.0.1)
#   --backend-port PORT   the first process's port (default 8001; then 8002, ...)
#   --database URL        default $SHADOWTABLE_DATABASE or postgresql://postgres@127.0.0.1:5432/test
#   --redis URL           default redis://127.0.0.1:6379/0; --no-redis to leave it out
#   --run-dir DIR         nginx's config, pid, logs and every server's log (default: a new temporary folder)
#   --max-restarts N      restarts of one process within 60 s before the script gives it up (default 5)
#
# Environment: PYTHON (the interpreter with ShadowTable's [web] extra: default this checkout's
# .venv, else python3; the code run is this checkout's src/), SHADOWTABLE_SECRET (the token key
# shared by all processes: default the one kept in the data folder), NGINX (the nginx binary).
#
# nginx is Debian's (installed with apt-get when missing); its configuration is generated from
# docs/deploy/nginx.conf into the run folder and /etc/nginx is never touched.  The script waits
# for every process's /healthz and for nginx, prints the address to open, then supervises: a process
# that exits (a server or nginx) is logged and restarted after 1 s, doubling with each exit within
# a minute up to 30 s, while the others go on serving; one that exits more than --max-restarts
# times within a minute is given up (and said so), the rest still serving.  Ctrl+C or SIGTERM
# stops everything (nginx gracefully, the servers with TERM).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TEMPLATE="$ROOT/docs/deploy/nginx.conf"
PROCESSES=3
HOST=127.0.0.1
PORT=8000
BACKEND_PORT=8001
DATABASE="${SHADOWTABLE_DATABASE:-postgresql://postgres@127.0.0.1:5432/test}"
REDIS="redis://127.0.0.1:6379/0"
RUN_DIR=""
MAX_RESTARTS=5
RESTART_WINDOW_S=60
RESTART_DELAY_S=1
RESTART_MAX_DELAY_S=30
SERVE_ARGS=()

die() {
    echo "error: $*" >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
    -n | --processes) PROCESSES="${2:?}"; shift 2 ;;
    --port) PORT="${2:?}"; shift 2 ;;
    --host) HOST="${2:?}"; shift 2 ;;
    --backend-port) BACKEND_PORT="${2:?}"; shift 2 ;;
    --database) DATABASE="${2:?}"; shift 2 ;;
    --redis) REDIS="${2:?}"; shift 2 ;;
    --no-redis) REDIS=""; shift ;;
    --run-dir) RUN_DIR="${2:?}"; shift 2 ;;
    --max-restarts) MAX_RESTARTS="${2:?}"; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; SERVE_ARGS=("$@"); break ;;
    *) die "unknown option $1 (see $0 --help)" ;;
    esac
done
[[ "$PROCESSES" =~ ^[1-9][0-9]?$ ]] || die "--processes must be a number from 1 to 99"
[[ "$PORT" =~ ^[0-9]+$ && "$BACKEND_PORT" =~ ^[0-9]+$ ]] || die "ports are numbers"
[[ "$MAX_RESTARTS" =~ ^[0-9]{1,3}$ ]] || die "--max-restarts must be a number from 0 to 999"
[[ "$DATABASE" == postgresql* ]] || die "--database must be postgresql://...: the processes share it"

if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
export PYTHONPATH="$ROOT/src${PYTHONPATH:+:$PYTHONPATH}"
"$PYTHON" -c "import shadowtable.server.app" 2>/dev/null \
    || die "$PYTHON cannot import shadowtable.server (set PYTHON to an interpreter with the [web] extra)"

# nginx: Debian's, installed if missing.
NGINX="${NGINX:-$(command -v nginx || true)}"
if [[ -z "$NGINX" && -x /usr/sbin/nginx ]]; then NGINX=/usr/sbin/nginx; fi
if [[ -z "$NGINX" ]]; then
    echo "nginx is missing: installing Debian's (apt-get install -y nginx)" >&2
    SUDO=""
    if [[ $EUID -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get install -y nginx >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y nginx >&2; } \
        || die "could not install nginx"
    NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
fi
[[ -x "$NGINX" ]] || die "no nginx at $NGINX"

if [[ -n "$REDIS" ]] && command -v redis-cli >/dev/null; then
    redis-cli -u "$REDIS" ping >/dev/null 2>&1 || die "Redis does not answer at $REDIS (or use --no-redis)"
fi

# Every process must sign and check seat tokens with the same key.
if [[ -z "${SHADOWTABLE_SECRET:-}" ]]; then
    SHADOWTABLE_SECRET="$("$PYTHON" -c \
        'from shadowtable.server.config import ServerConfig; print(ServerConfig().signing_secret())')"
fi
export SHADOWTABLE_SECRET

if [[ -z "$RUN_DIR" ]]; then RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/shadowtable-cluster.XXXXXX")"; fi
mkdir -p "$RUN_DIR/tmp"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"

# Each process runs in a process group of its own (setsid), so that what it leaves behind when it
# dies can be ended with it, and Ctrl+C reaches the script alone, which stops them in order.
command -v setsid >/dev/null || die "setsid (util-linux) is missing"

# One slot per server process (0 .. PROCESSES-1) and one for nginx (PROCESSES).  A slot's pid
# is empty while it waits for its restart (DUE, in ms) or after the script gave it up.
NGINX_SLOT=$PROCESSES
PIDS=()
DEATHS=() # the times (ms) the slot's process exited within the last RESTART_WINDOW_S
DUE=()
GAVE_UP=()
for ((i = 0; i <= PROCESSES; i++)); do PIDS[i]=""; DEATHS[i]=""; DUE[i]=""; GAVE_UP[i]=0; done
TICK=""
stopping=0

now_ms() { local t="${EPOCHREALTIME//[^0-9]/}"; echo $((10#$t / 1000)); }
say() { printf '%(%H:%M:%S)T cluster: %s\n' -1 "$*" >&2; }
name_of() { if [[ $1 -eq $NGINX_SLOT ]]; then echo nginx; else echo "server-$((BACKEND_PORT + $1))"; fi; }
running() { local pid; for pid in "${PIDS[@]}"; do [[ -n "$pid" ]] && printf '%s\n' "$pid"; done; return 0; }

stop_all() {
    local status=$?
    trap - INT TERM EXIT
    [[ $stopping -eq 1 ]] && return
    stopping=1
    echo "stopping the cluster..." >&2
    local pids
    mapfile -t pids < <(running)
    if [[ -n "$TICK" ]]; then kill "$TICK" 2>/dev/null || true; fi
    if [[ -n "${PIDS[NGINX_SLOT]}" ]]; then kill -QUIT "${PIDS[NGINX_SLOT]}" 2>/dev/null || true; fi
    for ((i = 0; i < PROCESSES; i++)); do
        if [[ -n "${PIDS[i]}" ]]; then kill -TERM "${PIDS[i]}" 2>/dev/null || true; fi
    done
    for _ in $(seq 150); do
        local alive=0
        for pid in "${pids[@]}"; do
            if kill -0 "$pid" 2>/dev/null; then alive=1; fi
        done
        [[ $alive -eq 0 ]] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    echo "stopped (logs in $RUN_DIR)" >&2
    exit "$status"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

healthy() { curl -fsS --max-time 2 -o /dev/null "$1/healthz" 2>/dev/null; }

wait_healthy() { # url pid name
    for _ in $(seq 600); do
        if ! kill -0 "$2" 2>/dev/null; then
            echo "error: $3 exited; the end of its log:" >&2
            tail -n 20 "$RUN_DIR/$3.log" >&2 || true
            exit 1
        fi
        if healthy "$1"; then return 0; fi
        sleep 0.1
    done
    echo "error: $3 did not answer $1/healthz within 60 s (see $RUN_DIR/$3.log)" >&2
    exit 1
}

start_server() { # index
    local port=$((BACKEND_PORT + $1))
    local args=(serve --host 127.0.0.1 --port "$port" --database "$DATABASE")
    if [[ -n "$REDIS" ]]; then args+=(--redis "$REDIS"); fi
    setsid "$PYTHON" -m shadowtable.cli "${args[@]}" "${SERVE_ARGS[@]}" >>"$RUN_DIR/server-$port.log" 2>&1 &
    PIDS[$1]=$!
}

start_nginx() {
    setsid "$NGINX" -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf" -e "$RUN_DIR/nginx-error.log" -g "daemon off;" \
        >>"$RUN_DIR/nginx.log" 2>&1 &
    PIDS[NGINX_SLOT]=$!
}

start_slot() { # slot
    if [[ $1 -eq $NGINX_SLOT ]]; then start_nginx; else start_server "$1"; fi
    DUE[$1]=""
}

# A process exited: restart it after a pause that doubles with each exit within the window, or
# give it up after MAX_RESTARTS exits within the window.  The others go on serving meanwhile.
on_exit() { # slot status pid
    local slot=$1 status=$2 name how now recent=() t
    name="$(name_of "$slot")"
    how="exit status $status"
    if [[ $status -gt 128 ]]; then how="killed by signal $((status - 128))"; fi
    now="$(now_ms)"
    for t in ${DEATHS[slot]} "$now"; do
        if [[ $((now - t)) -lt $((RESTART_WINDOW_S * 1000)) ]]; then recent+=("$t"); fi
    done
    DEATHS[slot]="${recent[*]}"
    PIDS[slot]=""
    # What it leaves behind (nginx's workers still holding the port, a server's bot workers) goes too.
    kill -KILL -- "-$3" 2>/dev/null || true
    local count=${#recent[@]}
    if [[ $count -gt $MAX_RESTARTS ]]; then
        GAVE_UP[slot]=1
        say "$name exited ($how) $count times within ${RESTART_WINDOW_S} s: not restarting it (see $RUN_DIR/$name.log)"
        if [[ $slot -eq $NGINX_SLOT ]]; then
            say "error: nginx is gone: stopping the cluster"
            exit 1
        fi
        local left=0
        for ((i = 0; i < PROCESSES; i++)); do [[ ${GAVE_UP[i]} -eq 0 ]] && left=$((left + 1)); done
        if [[ $left -eq 0 ]]; then
            say "error: every server process was given up: stopping the cluster"
            exit 1
        fi
        say "$left of $PROCESSES server processes go on serving"
        return
    fi
    local delay_ms=$((RESTART_DELAY_S * 1000 << (count - 1)))
    if [[ $delay_ms -gt $((RESTART_MAX_DELAY_S * 1000)) ]]; then delay_ms=$((RESTART_MAX_DELAY_S * 1000)); fi
    DUE[slot]=$((now + delay_ms))
    say "$name exited ($how); restarting it in $((delay_ms / 1000)) s (restart $count of at most $MAX_RESTARTS within ${RESTART_WINDOW_S} s)"
}

# The first process applies the migrations alone; the others start once it answers.
SERVERS=""
for ((i = 0; i < PROCESSES; i++)); do
    SERVERS+="        server 127.0.0.1:$((BACKEND_PORT + i));"$'\n'
done
start_server 0
wait_healthy "http://127.0.0.1:$BACKEND_PORT" "${PIDS[0]}" "server-$BACKEND_PORT"
for ((i = 1; i < PROCESSES; i++)); do start_server "$i"; done
for ((i = 1; i < PROCESSES; i++)); do
    port=$((BACKEND_PORT + i))
    wait_healthy "http://127.0.0.1:$port" "${PIDS[$i]}" "server-$port"
done

USER_LINE=""
if [[ $EUID -eq 0 ]]; then USER_LINE="user root;"; fi
LISTEN="$HOST:$PORT"
if [[ "$HOST" == *:* ]]; then LISTEN="[$HOST]:$PORT"; fi
awk -v user="$USER_LINE" -v run="$RUN_DIR" -v listen="$LISTEN" -v servers="${SERVERS%$'\n'}" '
    /^[[:space:]]*#/ { print; next }
    { gsub(/@@USER@@/, user); gsub(/@@RUN@@/, run); gsub(/@@LISTEN@@/, listen); gsub(/@@SERVERS@@/, servers); print }
' "$TEMPLATE" >"$RUN_DIR/nginx.conf"
"$NGINX" -t -q -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf" -e "$RUN_DIR/nginx-error.log" \
    || die "the generated $RUN_DIR/nginx.conf does not pass nginx -t"
start_nginx
FRONT="http://$LISTEN"
if [[ "$HOST" == 0.0.0.0 ]]; then FRONT="http://127.0.0.1:$PORT"; fi
wait_healthy "$FRONT" "${PIDS[NGINX_SLOT]}" nginx

shown_db="$(sed -E 's#//([^:/@]+):[^@]*@#//\1:***@#' <<<"$DATABASE")"
echo "ShadowTable cluster: open $FRONT/ ($PROCESSES processes on ports $BACKEND_PORT-$((BACKEND_PORT + PROCESSES - 1)), database $shown_db, redis ${REDIS:-none})"
processes=""
for ((i = 0; i <= PROCESSES; i++)); do processes+="${processes:+, }$(name_of "$i") pid ${PIDS[i]}"; done
echo "Processes: $processes."
echo "Logs and nginx.conf in $RUN_DIR. Stop it with Ctrl+C."

# Supervise until interrupted: wait for a process to exit (or for a tick of the clock, to start
# the restarts that are due), note it, and start what is due.
set +e
while true; do
    now="$(now_ms)"
    for ((i = 0; i <= PROCESSES; i++)); do
        if [[ -n "${DUE[i]}" && $now -ge ${DUE[i]} ]]; then
            start_slot "$i"
            say "$(name_of "$i") restarted (pid ${PIDS[i]})"
        fi
    done
    sleep 0.5 &
    TICK=$!
    mapfile -t pids < <(running)
    exited=""
    wait -n -p exited "${pids[@]}" "$TICK" 2>/dev/null # (bash's own "Killed" notice: said below instead)
    status=$?
    tick=$TICK
    TICK=""
    [[ -z "$exited" || "$exited" == "$tick" ]] && continue
    kill "$tick" 2>/dev/null
    wait "$tick" 2>/dev/null
    for ((i = 0; i <= PROCESSES; i++)); do
        if [[ "${PIDS[i]}" == "$exited" ]]; then on_exit "$i" "$status" "$exited"; fi
    done
done
