#!/usr/bin/env bash
# Installs everything keyplan's build, tests and tools need, on Debian 12, without questions.
# Idempotent: a second run installs nothing new. Run as root (or with sudo available).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

packages=(
  build-essential cmake pkg-config git
  libncurses-dev libyaml-dev libsqlite3-dev sqlite3 libcmocka-dev libjansson-dev
  libcurl4-openssl-dev zlib1g-dev
  tmux ncurses-term locales gettext curl
  openjdk-17-jre-headless nodejs npm
  python3 python3-yaml
  clang libclang-rt-14-dev clang-format
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from elsewhere on a machine (an image's own Node.js): keep those.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs/}"); missing=("${missing[@]/npm/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | sed '/^$/d'))
if [ "${#missing[@]}" -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A UTF-8 locale for the TUI and its tests (Spanish names must line up).
if ! locale -a 2>/dev/null | grep -qi '^C\.utf-\?8$'; then
  echo "deps: no C.UTF-8 locale found" >&2
fi

# The Spanish locale: keyplan's Spanish figures (1.244,50 €) and dates come from it, and
# LANG=es_ES.UTF-8 needs it to exist. Kept in /etc/locale.gen so that a later locale-gen keeps it.
if ! locale -a 2>/dev/null | grep -qi '^es_ES\.utf-\?8$'; then
  echo "deps: generating the es_ES.UTF-8 locale"
  if [ -f /etc/locale.gen ] && ! grep -q '^es_ES.UTF-8 UTF-8' /etc/locale.gen; then
    echo 'es_ES.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  fi
  $SUDO localedef -i es_ES -f UTF-8 es_ES.UTF-8
fi

# DynamoDB Local, AWS's own engine, ships inside the npm package amplify-dynamodb-simulator
# (emulator/DynamoDBLocal.jar). Installed under .deps/, never committed.
sim="$here/.deps/npm/node_modules/amplify-dynamodb-simulator/emulator/DynamoDBLocal.jar"
if [ ! -f "$sim" ]; then
  echo "deps: installing DynamoDB Local (npm amplify-dynamodb-simulator)"
  mkdir -p "$here/.deps/npm"
  (cd "$here/.deps/npm" && [ -f package.json ] || echo '{"name":"keyplan-deps","private":true}' > "$here/.deps/npm/package.json")
  npm install --prefix "$here/.deps/npm" --no-audit --no-fund --ignore-scripts \
      amplify-dynamodb-simulator@2 >/dev/null
fi
[ -f "$sim" ] || { echo "deps: DynamoDB Local jar not found at $sim" >&2; exit 1; }
echo "deps: ok"
