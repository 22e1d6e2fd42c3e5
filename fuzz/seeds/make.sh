#!/usr/bin/env bash
# Rebuild fuzz/seeds/<target>/ from the project's own corpus (corpus/catalogs).
# Run from the repository root: bash fuzz/seeds/make.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=fuzz/seeds
shape_targets=(shape_no_panic shape_idempotent shape_conforms shape_never_silent)
rm -rf "${shape_targets[@]/#/$out/}" "$out/catalog_load_no_panic" "$out/oracle_no_panic"
mkdir -p "${shape_targets[@]/#/$out/}" "$out/catalog_load_no_panic" "$out/oracle_no_panic"
for catalog in corpus/catalogs/*.json; do
  stem=$(basename "$catalog" .json)
  cp "$catalog" "$out/catalog_load_no_panic/$stem.json"
  n=$(jq '.tools | length' "$catalog")
  for ((i = 0; i < n; i++)); do
    name=$(jq -r ".tools[$i].name" "$catalog")
    seed="$stem-$name.json"
    for t in "${shape_targets[@]}"; do
      jq -c ".tools[$i].input_schema" "$catalog" >"$out/$t/$seed"
    done
    # One tool per file in the wire formats the loader knows.
    jq -c "{tools: [.tools[$i]]}" "$catalog" >"$out/catalog_load_no_panic/mcp-$seed"
    jq -c "[.tools[$i] | {type: \"function\", function: {name, description, parameters: .input_schema}}]" \
      "$catalog" >"$out/catalog_load_no_panic/chat-$seed"
    # Requests as the oracles see them: Chat and Messages wires.
    jq -c "{tools: [.tools[$i] | {type: \"function\", function: {name, description, parameters: .input_schema, strict: true}}], tool_choice: \"auto\"}" \
      "$catalog" >"$out/oracle_no_panic/chat-$seed"
    jq -c "{tools: [.tools[$i] | {name, description, input_schema}]}" \
      "$catalog" >"$out/oracle_no_panic/messages-$seed"
  done
done
