#!/usr/bin/env bash
# Re-extract every message id of core/, render/ and bot/ and merge them into the catalogs, then compile.
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel extract -F babel.cfg -k t:2 -k tn:2,3 -k tp:2c,3 -k N_ -k NP_:1c,2 -k Refusal:1 \
  --no-location --sort-output -o i18n/locales/messages.pot . >/dev/null 2>&1
pybabel update -i i18n/locales/messages.pot -d i18n/locales -D messages --no-fuzzy-matching --ignore-obsolete >/dev/null
pybabel compile -d i18n/locales -D messages --statistics
