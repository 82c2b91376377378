#!/usr/bin/env bash
# Soak (issue 14): tests/soak/Service, an ASP.NET Core service over a real PostgreSQL with a Polly
# retry pipeline and a Channel worker, built classic and with Async2, each run by tests/soak/Driver
# under sustained loopback load with the database stopped (immediate mode, so crash recovery) and
# restarted mid-run. Both builds must answer the same request sequence with the same responses,
# leave the same database contents, answer nothing outside the contract, lose no acknowledged
# write, and keep the managed heap and RSS within the bounds below. Details: tests/soak/README.md.
#
#   tests/soak.sh [seconds]   seconds of load per build after warm-up (default 25; CI runs the default)
#
# Outputs go to artifacts/soak/<build>/ (transcript, database dump, memory samples, service log).
set -euo pipefail
# All in one function, read whole before it runs, so editing this file during a run does not derail it.
main() {
    cd "$(dirname "$0")/.."
    seconds="${1:-25}"
    clients="${SOAK_CLIENTS:-16}"
    heap_bound_mb="${SOAK_HEAP_BOUND_MB:-16}"
    rss_bound_mb="${SOAK_RSS_BOUND_MB:-64}"
    out="$PWD/artifacts/soak"

    die() { echo "soak: $*" >&2; exit 1; }

    # PostgreSQL from Debian's packages; its binaries are not on PATH there.
    pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
    if [ -z "$(pg_bin)" ]; then
        if [ "$(id -u)" = 0 ]; then
            echo "soak: installing PostgreSQL (Debian's postgresql package)"
            (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql) >/dev/null \
                || die "could not install the postgresql package with apt-get; install it and run again"
        else
            die "PostgreSQL is not installed and this is not root: run 'apt-get install postgresql' as root first"
        fi
    fi
    bin="$(pg_bin)"
    [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] || die "no initdb/pg_ctl in $bin"

    # The server refuses to run as root; as root, it runs as Debian's postgres user.
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || die "running as root but there is no 'postgres' user to run the server as"
        as_pg() { runuser -u postgres -- "$@"; }
    else
        as_pg() { "$@"; }
    fi

    # A port nobody on the machine listens on (bash's /dev/tcp connects only if someone does).
    free_port() {
        local p
        for p in $(seq "$1" $(($1 + 200))); do
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
        done
        die "no free loopback port from $1"
    }

    work="$(mktemp -d /tmp/async2-soak.XXXXXX)"
    data="$work/data"
    cleanup() {
        as_pg "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$work"
    }
    trap cleanup EXIT
    chmod 755 "$work"
    [ "$(id -u)" = 0 ] && chown postgres: "$work"

    echo "== building the service (classic and Async2) and the driver"
    dotnet build tests/soak/Service -c Release -p:Async2Enabled=false -nologo -v quiet >/dev/null || die "classic build of the service failed"
    dotnet build tests/soak/Service -c Release -nologo -v quiet >/dev/null || die "Async2 build of the service failed"
    dotnet build tests/soak/Driver -c Release -nologo -v quiet >/dev/null || die "driver build failed"
    classic_dll=tests/soak/Service/bin/classic/Release/net10.0/SoakService.dll
    async2_dll=tests/soak/Service/bin/async2/Release/net10.0/SoakService.dll
    # The two builds must really differ: only the Async2 one carries the runtime library beside it,
    # and only a rewritten assembly declares continuation classes (<M>d__Async2_N, in its metadata's
    # UTF-8 names); the library alone was there once when the service had been built classic.
    [ -f "$(dirname "$async2_dll")/Async2.Runtime.dll" ] || die "the Async2 build has no Async2.Runtime.dll: it was not rewritten"
    grep -aq 'd__Async2_' "$async2_dll" || die "the Async2 build declares no continuation class: it was not rewritten"
    [ ! -f "$(dirname "$classic_dll")/Async2.Runtime.dll" ] || die "the classic build carries Async2.Runtime.dll"
    ! grep -aq 'd__Async2_' "$classic_dll" || die "the classic build declares continuation classes"

    # Ports below the kernel's ephemeral range (32768 up by default): a loopback client socket of any
    # process may take an ephemeral port as its own end, and then the server cannot bind it, at
    # start or, worse, when it restarts mid-run.
    echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}') in $data"
    as_pg "$bin/initdb" -D "$data" -U soak -A trust --no-sync -E UTF8 --locale=C >"$work/initdb.log" 2>&1 \
        || die "initdb failed: $(tail -5 "$work/initdb.log")"
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$work'
max_connections = 200
CONF
    pg_start="$(printf '%q ' runuser -u postgres -- "$bin/pg_ctl" -D "$data" -l "$work/postgres.log" -w -t 60 start)"
    pg_stop="$(printf '%q ' runuser -u postgres -- "$bin/pg_ctl" -D "$data" -m immediate -w stop)"
    if [ "$(id -u)" != 0 ]; then
        pg_start="$(printf '%q ' "$bin/pg_ctl" -D "$data" -l "$work/postgres.log" -w -t 60 start)"
        pg_stop="$(printf '%q ' "$bin/pg_ctl" -D "$data" -m immediate -w stop)"
    fi
    # Another program may bind the port between the check and the start: then take the next one.
    pg_port=25431
    for attempt in 1 2 3; do
        pg_port="$(free_port $((pg_port + 1)))"
        echo "port = $pg_port" >>"$data/postgresql.conf"
        if sh -c "$pg_start" >/dev/null; then break; fi
        [ "$attempt" = 3 ] && die "PostgreSQL did not start: $(tail -5 "$work/postgres.log")"
    done
    echo "   listening on 127.0.0.1:$pg_port"

    rm -rf "$out"
    status=0
    for build in classic async2; do
        dll="${build}_dll"
        db="soak_$build"
        "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U soak -d postgres -qc "CREATE DATABASE $db" || die "could not create database $db"
        if [ "$build" = classic ]; then
            mode=(--seconds "$seconds" --expect-async2 no)
        else
            mode=(--plan "$out/classic/plan.txt" --expect-async2 yes)
        fi
        echo "== $build: $clients clients, $([ "$build" = classic ] && echo "$seconds s of load" || echo "the classic run's rounds"), database stopped and restarted mid-run"
        dotnet tests/soak/Driver/bin/Release/net10.0/SoakDriver.dll --service "${!dll}" \
            --db "Host=127.0.0.1;Port=$pg_port;Username=soak;Database=$db" --port "$(free_port 5180)" \
            --out "$out/$build" "${mode[@]}" --clients "$clients" \
            --db-stop-cmd "$pg_stop" --db-start-cmd "$pg_start" \
            --heap-bound-mb "$heap_bound_mb" --rss-bound-mb "$rss_bound_mb" --time-limit $((seconds * 3 + 300)) || status=1
        [ -f "$out/$build/summary.txt" ] || die "the $build run left no summary; see $out/$build/service.log"
    done

    echo "== comparing the two builds"
    for file in transcript.txt db.txt; do
        if cmp -s "$out/classic/$file" "$out/async2/$file"; then
            echo "$file: identical ($(wc -l <"$out/classic/$file") lines)"
        else
            echo "$file: DIFFERS between classic and Async2:" >&2
            diff -u "$out/classic/$file" "$out/async2/$file" | head -20 >&2 || true
            status=1
        fi
    done

    value() { sed -n "s/^$2=//p" "$out/$1/summary.txt"; }
    echo
    printf '%-34s %14s %14s\n' "" classic async2
    row() { printf '%-34s %14s %14s\n' "$1" "$(value classic "$2")" "$(value async2 "$2")"; }
    row "requests (warm-up + load)" requests
    row "load phase, s" main_seconds
    row "requests/s under load" req_per_s
    row "responses outside the contract" errors
    row "acknowledged orders" acked_orders
    row "acknowledged events" acked_events
    row "acknowledged writes missing" missing_acks
    row "managed heap after full GC, warm" heap_warm_mb
    row "managed heap after full GC, end" heap_end_mb
    row "RSS warm, MB" rss_warm_mb
    row "RSS peak, MB" rss_peak_mb
    row "RSS end, MB" rss_end_mb
    row "database outage, s" outage_s
    row "first answer after restart, s" recovery_s
    row "slowest request, s" max_latency_s
    row "database call retries" db_retries
    row "Async2 chains suspended" async2_suspensions
    row "Async2 resumptions" async2_resumptions
    row "result" result
    echo "bounds: heap after full GC at end <= warm + $heap_bound_mb MB; RSS at end <= warm + $rss_bound_mb MB"

    if [ "$status" = 0 ]; then echo "soak: passed"; else echo "soak: FAILED" >&2; fi
    exit "$status"
}
main "$@"
