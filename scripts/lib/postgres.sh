# shellcheck shell=bash
# A throwaway PostgreSQL cluster for the tests: installed from Debian's packages where missing
# (root + apt-get), initialised in a temporary directory, listening on 127.0.0.1 on a free port,
# stopped and removed when the calling script exits. Sourced by scripts/test.
#
#   start_test_postgres   sets W2C_TEST_PG_URL, or explains why not and returns 1
#
# The cluster is for tests only: trust authentication on 127.0.0.1, fsync off.

_pg_bindir() {
  local dir
  if command -v pg_config >/dev/null 2>&1; then
    dir=$(pg_config --bindir 2>/dev/null || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

# Install a Debian package as root; quiet unless it fails.
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "cannot install $*: needs root and apt-get" >&2
    return 1
  fi
  local log
  log=$(mktemp)
  if ! { [ -n "${_W2C_APT_UPDATED:-}" ] || apt-get update -q >"$log" 2>&1; }; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    return 1
  fi
  _W2C_APT_UPDATED=1
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
    >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# Run a command as the cluster's owner: the `postgres` OS user when we are root (initdb and
# the server refuse to run as root), else ourselves.
_pg_as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

_W2C_PG_DIR=""
_W2C_PG_BIN=""

stop_test_postgres() {
  if [ -n "$_W2C_PG_DIR" ]; then
    _pg_as_owner "$_W2C_PG_BIN/pg_ctl" -D "$_W2C_PG_DIR/data" -m immediate -w stop \
      >/dev/null 2>&1 || true
    rm -rf "$_W2C_PG_DIR"
    echo "== PostgreSQL stopped, $_W2C_PG_DIR removed"
    _W2C_PG_DIR=""
  fi
}

start_test_postgres() {
  local bindir port version
  if ! bindir=$(_pg_bindir); then
    echo "== PostgreSQL not found; installing Debian's postgresql package"
    apt_install postgresql || return 1
    bindir=$(_pg_bindir) || { echo "postgresql installed but initdb not found" >&2; return 1; }
  fi
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root but there is no 'postgres' OS user to own the cluster" >&2
    return 1
  fi
  _W2C_PG_BIN=$bindir
  _W2C_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/w2c-pg.XXXXXX")
  trap stop_test_postgres EXIT
  chmod 755 "$_W2C_PG_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres "$_W2C_PG_DIR"; fi
  if ! _pg_as_owner "$bindir/initdb" -D "$_W2C_PG_DIR/data" -U postgres --auth=trust \
    -E UTF8 --locale=C.UTF-8 >"$_W2C_PG_DIR/initdb.log" 2>&1; then
    tail -n 20 "$_W2C_PG_DIR/initdb.log" >&2
    return 1
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # A time zone other than UTC on purpose: timestamps must not depend on the server's.
  if ! _pg_as_owner "$bindir/pg_ctl" -D "$_W2C_PG_DIR/data" -l "$_W2C_PG_DIR/server.log" -w \
    -t 60 -o "-c listen_addresses=127.0.0.1 -p $port -k $_W2C_PG_DIR -c fsync=off \
    -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 \
    -c timezone=America/New_York" start >/dev/null 2>&1; then
    tail -n 20 "$_W2C_PG_DIR/server.log" >&2
    return 1
  fi
  version=$("$bindir/postgres" --version)
  export W2C_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
  echo "== PostgreSQL started: $version on 127.0.0.1:$port (throwaway cluster in $_W2C_PG_DIR)"
}
