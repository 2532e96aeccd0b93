# Prints the Makefile's targets with their `##` comments (`make help`). A comment block belongs to the next target
# line; variable assignments between them (the schemathesis block) keep it, anything else drops it.
/^## ?/ { sub(/^## ?/, ""); doc[n++] = $0; next }
/^[A-Za-z_][A-Za-z0-9_]* *[:?+]?=/ { next }
/^[A-Za-z][A-Za-z0-9_-]*:/ && n > 0 {
  split($0, parts, ":")
  printf "  %-18s %s\n", parts[1], doc[0]
  for (i = 1; i < n; i++) printf "  %-18s %s\n", "", doc[i]
}
{ n = 0 }
