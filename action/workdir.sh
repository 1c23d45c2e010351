# Sourced by the Action's steps: change to the `working-directory` input
# (SPEC §12 D3), relative to GITHUB_WORKSPACE unless absolute, so a
# checkout made with actions/checkout's `path:` is the one checked.
wd=${RIVUMI_LINT_WORKING_DIRECTORY:-.}
case "$wd" in
  /* | [A-Za-z]:[\\/]*) ;;
  *) wd="$GITHUB_WORKSPACE/$wd" ;;
esac
if ! cd -- "$wd" 2>/dev/null; then
  echo "::error title=rivumi-lint::working-directory ${RIVUMI_LINT_WORKING_DIRECTORY} is not a directory under GITHUB_WORKSPACE; set it to the path: given to actions/checkout"
  exit 1
fi
unset wd
