#!/bin/sh
# install.sh BLOOMSIM BUILDDIR - bloomsim as a user who installs it gets it (issue 43):
# `meson install` into a scratch DESTDIR, then, from a directory with no experiments/
# and without BLOOMSIM_EXPERIMENTS, the installed program alone:
#  - finds its shipped experiments under the prefix (share/bloomsim/experiments), never
#    the checkout's (the build tree's program does take those: the fallback is its own);
#  - `bloomsim list` lists them all, and `run stack-dials --quick` writes the table the
#    build tree's program writes from the checkout's file;
#  - then ./experiments, then $BLOOMSIM_EXPERIMENTS, in that order, a shadowed name marked;
#  - `man -l` reads the installed manual; the installed completion, sourced in bash,
#    offers the commands of `bloomsim --help` and the experiments of `bloomsim list`, and
#    Debian's bash-completion finds it where it was installed;
#  - -V, help and help COMMAND; CITATION.cff's version is meson's.
set -u
B=$(realpath "$1")
build=$2
. tests/lib.sh
src=$(pwd)

if ! command -v meson > /dev/null; then
    echo "meson not on PATH: cannot install (skipped)"
    exit 77
fi
meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/inst" > "$tmp/install.log" 2>&1 \
    || { bad "meson install failed: $(tail -3 "$tmp/install.log")"; finish; }
I=$(find "$tmp/inst" -path '*/bin/bloomsim' -type f)
man1=$(find "$tmp/inst" -path '*/man1/bloomsim.1' -type f)
comp=$(find "$tmp/inst" -path '*/bash-completion/completions/bloomsim' -type f)
data=$(find "$tmp/inst" -path '*/share/bloomsim/experiments' -type d)
wanted="I comp data"
if [ -f "$build/bloomsim.1" ]; then
    wanted="$wanted man1"
else
    echo "no build/bloomsim.1 (scdoc not found at setup): the manual is not checked"
    man1=
fi
for f in $wanted; do
    eval "[ -n \"\$$f\" ]" && ok || bad "meson install put no $f under $tmp/inst"
done
[ -n "$I" ] || finish

# Away from the checkout: an empty directory, no BLOOMSIM_EXPERIMENTS.
mkdir "$tmp/away"
cd "$tmp/away" || exit 1
unset BLOOMSIM_EXPERIMENTS
"$I" list > "$tmp/list" 2> "$tmp/err" && ok || bad "installed bloomsim list failed: $(cat "$tmp/err")"
grep '^experiments' "$tmp/list" > "$tmp/dirs"
[ "$(cat "$tmp/dirs")" = "experiments ($data):" ] && ok \
    || bad "installed bloomsim list looked in $(tr '\n' ' ' < "$tmp/dirs"), wanted only $data"
grep -q "$src" "$tmp/list" && bad "installed bloomsim list names the checkout $src" || ok
for f in "$src"/experiments/*.ini; do
    e=$(basename "$f" .ini)
    grep -q "^  $e " "$tmp/list" && ok || bad "installed bloomsim list lacks $e"
    cmp -s "$f" "$data/$e.ini" && ok || bad "installed $e.ini differs from experiments/$e.ini"
done
n=$(ls "$data" | wc -l)
[ "$n" -eq "$(ls "$src"/experiments | wc -l)" ] && ok || bad "$data holds $n files, experiments/ $(ls "$src"/experiments | wc -l)"
"$B" list | grep -qx "experiments ($src/experiments):" && ok \
    || bad "the build tree's bloomsim, away from the checkout, does not find its experiments"

"$I" run stack-dials --quick --threads 2 --out out > "$tmp/run" 2>&1 && ok \
    || bad "installed bloomsim run stack-dials failed: $(tail -2 "$tmp/run")"
(cd "$src" && "$B" run stack-dials --quick --threads 2 --out "$tmp/ref" > /dev/null 2>&1)
if [ -f out/stack-dials.quick.csv ] && [ -f "$tmp/ref/stack-dials.quick.csv" ]; then
    strip_seconds out/stack-dials.quick.csv > "$tmp/a"
    strip_seconds "$tmp/ref/stack-dials.quick.csv" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" && ok \
        || bad "the installed program's stack-dials table differs from the build tree's"
else
    bad "no stack-dials.quick.csv from the installed or the build tree's program"
fi
"$I" run floor-4096 --quick --out out > /dev/null 2>&1 && ok || bad "installed run floor-4096 failed"

# Then ./experiments, then $BLOOMSIM_EXPERIMENTS; the first that holds a name wins.
mkdir experiments env
echo 'not an experiment' > experiments/stack-dials.ini # hidden by the shipped one
sed 's/^title = .*/title = mine/' "$data/stack-dials.ini" > experiments/mine.ini
sed 's/^title = .*/title = from the environment/' "$data/stack-dials.ini" > env/theirs.ini
cp experiments/mine.ini env/mine.ini
BLOOMSIM_EXPERIMENTS=$tmp/away/env "$I" list > "$tmp/list2"
grep '^experiments' "$tmp/list2" > "$tmp/dirs2"
printf 'experiments (%s):\nexperiments (experiments):\nexperiments (%s):\n' "$data" \
    "$tmp/away/env" | cmp -s - "$tmp/dirs2" && ok \
    || bad "list's directories are not shipped, ./experiments, \$BLOOMSIM_EXPERIMENTS: $(tr '\n' ' ' < "$tmp/dirs2")"
awk '/^experiments \(experiments\)/,/^$/' "$tmp/list2" | grep -q '^  stack-dials .*hidden' && ok \
    || bad "list does not mark ./experiments/stack-dials.ini as hidden by the shipped one"
awk '/^experiments \(experiments\)/,/^$/' "$tmp/list2" | grep -q '^  mine  *mine$' && ok \
    || bad "list does not show ./experiments/mine.ini"
awk '/^experiments \(.*env\)/,/^$/' "$tmp/list2" | grep -q '^  mine .*hidden' && ok \
    || bad "list does not mark \$BLOOMSIM_EXPERIMENTS/mine.ini as hidden by ./experiments"
grep -q '^  theirs  *from the environment' "$tmp/list2" && ok \
    || bad "list does not show \$BLOOMSIM_EXPERIMENTS/theirs.ini"
BLOOMSIM_EXPERIMENTS=$tmp/away/env "$I" run theirs --quick --out out2 > /dev/null 2>&1 \
    && [ -f out2/theirs.quick.csv ] && ok || bad "run theirs (from \$BLOOMSIM_EXPERIMENTS) failed"
"$I" run stack-dials --quick --out out3 > /dev/null 2>&1 && [ -f out3/stack-dials.quick.csv ] \
    && ok || bad "run stack-dials did not take the shipped file before ./experiments' broken one"
if [ "$(id -u)" -ne 0 ]; then # root reads any file
    cp env/theirs.ini experiments/theirs.ini && chmod 000 experiments/theirs.ini
    BLOOMSIM_EXPERIMENTS=$tmp/away/env "$I" run theirs --quick --out out2 > /dev/null 2> "$tmp/err"
    [ $? -eq 2 ] && grep -qF "unreadable file experiments/theirs.ini" "$tmp/err" && ok \
        || bad "an unreadable ./experiments/theirs.ini: wanted exit 2 naming it, got: $(cat "$tmp/err")"
    rm -f experiments/theirs.ini
fi
"$I" run no-such --quick --out out2 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -qF "no readable no-such.ini in $data or experiments;" "$tmp/err" && ok \
    || bad "run no-such: wanted exit 2 naming where it looked, got: $(cat "$tmp/err")"

# The manual and the completion, as installed.
if [ -n "$man1" ] && command -v man > /dev/null; then
    MANWIDTH=80 MANPAGER=cat man -l "$man1" > "$tmp/man" 2> "$tmp/err"
    for h in NAME SYNOPSIS COMMANDS 'EXIT STATUS' ENVIRONMENT FILES; do
        grep -q "^$h" "$tmp/man" && ok || bad "man -l $man1 has no $h section: $(head -2 "$tmp/err")"
    done
else
    echo "no man or no page: the installed page is not read (skipped)"
fi
want=$("$I" --help | awk '/^  [a-z]/ { print $1 }' | tr '\n' ' ')
got=$(PATH="$(dirname "$I"):$PATH" bash -c '. "$1"; COMP_WORDS=(bloomsim ""); COMP_CWORD=1
      _bloomsim; echo "${COMPREPLY[*]}"' sh "$comp")
[ "$got" = "${want}-V --version --help" ] && ok \
    || bad "the installed completion offers '$got', wanted '${want}-V --version --help'"
got=$(PATH="$(dirname "$I"):$PATH" bash -c '. "$1"; COMP_WORDS=(bloomsim run stack-d)
      COMP_CWORD=2; _bloomsim; echo "${COMPREPLY[*]}"' sh "$comp")
[ "$got" = stack-dials ] && ok || bad "completing 'bloomsim run stack-d' gave '$got'"

# Debian's bash-completion itself finds it (it looks in \$XDG_DATA_DIRS/bash-completion/
# completions, /usr/local/share's and /usr/share's by default: here the scratch prefix's).
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
    share=$(dirname "$(dirname "$(dirname "$comp")")")
    got=$(XDG_DATA_DIRS=$share bash -c '. "$1"; __load_completion bloomsim && complete -p bloomsim' \
          sh "$bc" 2>&1)
    case $got in
        *"-F _bloomsim bloomsim"*) ok ;;
        *) bad "bash-completion does not load the installed completion from $share: $got" ;;
    esac
else
    echo "no $bc: bash-completion's own loading is not checked"
fi

# -V, help, help COMMAND; the licence and the citation.
"$I" -V | grep -qx "bloomsim $("$I" --version | sed 's/^bloomsim //')" && ok || bad "-V is not --version"
"$I" help | cmp -s - "$tmp/list" && bad "help printed list's output" || ok
"$I" help | grep -q '^  help ' && ok || bad "bloomsim help lacks help"
"$I" run --help > "$tmp/rh"
"$I" help run | cmp -s - "$tmp/rh" && ok || bad "bloomsim help run differs from bloomsim run --help"
"$I" help nosuch > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && ok || bad "help nosuch: wanted one line, exit 2"
cd "$src" || exit 1
v=$(sed -n "s/^  version : '\(.*\)',$/\1/p" meson.build)
grep -qx "version: $v" CITATION.cff && ok || bad "CITATION.cff's version is not meson.build's $v"
grep -qx 'cff-version: 1.2.0' CITATION.cff && grep -q '^title: ' CITATION.cff \
    && grep -q '^message: ' CITATION.cff && grep -q '^authors:' CITATION.cff && ok \
    || bad "CITATION.cff lacks one of cff-version 1.2.0, title, message, authors"
grep -q "license : 'MIT'" meson.build && grep -qx 'MIT License' LICENSE && ok \
    || bad "LICENSE is not the MIT licence meson.build names"
finish
