#!/bin/sh
# man.sh BLOOMSIM - the manual (docs/bloomsim.1.scd, the one source of bloomsim(1))
# cannot drift from the program:
#  - every command of `bloomsim --help` has its section "## bloomsim CMD" and every such
#    section is a command;
#  - each section names exactly the options of `bloomsim CMD --help` (one missing or one
#    stale is named with its command);
#  - OPTIONS names the program's own options (-V, --version, -h, --help), EXIT STATUS
#    every status `bloomsim --help` gives, ENVIRONMENT every variable src/ reads
#    (getenv), FILES every file of a run's store (src/run/store.h);
#  - scdoc, where installed, turns it into a page.
set -u
B=$1
. tests/lib.sh
man=docs/bloomsim.1.scd

# section TITLE: the lines of the section (# or ##) titled TITLE, markup taken off.
section() {
    awk -v t="$1" '/^#/ { on = ($0 == "# " t || $0 == "## " t); next } on' "$man" |
        sed 's/\\//g'
}
# options [CMD]: the --options named on stdin, but those of another command (bloomsim
# OTHER --opt, with or without markup), one a line, sorted.
options() {
    others=$(echo "$cmds" | grep -vx "${1:-}" | tr '\n' '|' | sed 's/|$//')
    sed -E "s/bloomsim ($others) --[a-z-]+//g" |
        grep -oE -- '(^|[^A-Za-z0-9-])--[A-Za-z][A-Za-z0-9-]*' | sed 's/^[^-]*//' | sort -u
}

"$B" --help > "$tmp/help"
cmds=$(awk '/^  [a-z]/ { print $1 }' "$tmp/help")
for c in $cmds; do
    section "bloomsim $c" > "$tmp/sec"
    if ! grep -q "^## bloomsim $c\$" "$man"; then
        bad "$man has no section '## bloomsim $c' for the command $c of bloomsim --help"
        continue
    fi
    [ "$c" = help ] && { ok; continue; }
    "$B" "$c" --help | options "$c" | grep -vx -- '--help' > "$tmp/want"
    options "$c" < "$tmp/sec" | grep -vx -- '--help' > "$tmp/have"
    for o in $(comm -23 "$tmp/want" "$tmp/have"); do
        bad "$man, section 'bloomsim $c': option $o of 'bloomsim $c --help' is missing"
    done
    for o in $(comm -13 "$tmp/want" "$tmp/have"); do
        bad "$man, section 'bloomsim $c': option $o is not in 'bloomsim $c --help' (stale?)"
    done
    cmp -s "$tmp/want" "$tmp/have" && ok
done
for c in $(sed -n 's/^## bloomsim \([a-z-]*\)$/\1/p' "$man"); do
    echo "$cmds" | grep -qx "$c" && ok || bad "$man has a section for 'bloomsim $c', no command of bloomsim --help"
done

section OPTIONS > "$tmp/have"
for o in -V --version -h --help; do
    grep -q -- "$o" "$tmp/help" || [ "$o" = -h ] || bad "bloomsim --help does not name $o"
    grep -q -- "\*$o\*" "$tmp/have" && ok || bad "$man, section OPTIONS: option $o is missing"
done
section 'EXIT STATUS' > "$tmp/exit"
for s in $(sed -n '/^Exit status:/,/^$/p' "$tmp/help" | grep -oE '(^|[^0-9A-Za-z])[0-9]+' |
           grep -oE '[0-9]+' | sort -u); do
    grep -qE "(^|[^0-9])$s([^0-9]|\$)" "$tmp/exit" && ok \
        || bad "$man, section EXIT STATUS: status $s of bloomsim --help is missing"
done
section ENVIRONMENT > "$tmp/env"
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' src | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
    grep -q "\*$v\*" "$tmp/env" && ok \
        || bad "$man, section ENVIRONMENT: $v (read by src/) is missing"
done
section FILES | tr -d '_' > "$tmp/files"
for f in $(grep -oE 'DIR/NAME[.][a-z.]+' src/run/store.h | sed 's/[.]$//' | sort -u); do
    grep -qF "$f" "$tmp/files" && ok || bad "$man, section FILES: $f (src/run/store.h) is missing"
done

if command -v scdoc > /dev/null; then
    scdoc < "$man" > "$tmp/page" 2> "$tmp/err" && ok || bad "scdoc refuses $man: $(cat "$tmp/err")"
fi
finish
