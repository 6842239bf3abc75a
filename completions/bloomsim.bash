# bash completion for bloomsim(1), installed as bash-completion/completions/bloomsim.
# Everything is asked from the program being completed, so it cannot drift: the
# commands from `bloomsim --help`, each command's options from `bloomsim CMD --help`,
# the experiments, schemes, key sets and fingerprint filters from `bloomsim list`, the
# libraries from `bloomsim audit --list --tsv` and the sizing rules from `bloomsim size
# --help`. Works without bash-completion's helpers too (plain compgen).

# The first words of the lines indented by two spaces in the sections of the text on
# stdin whose unindented heading line holds HEADING; names marked hidden are left out.
_bloomsim_section() {
    awk -v h="$1" '/^[^ ]/ { on = index($0, h) > 0; next }
                   on && /^  [^ ]/ && $2 != "(hidden:" { print $1 }'
}

_bloomsim_commands() {
    "$1" --help 2> /dev/null | awk '/^  [a-z]/ { print $1 }'
}

_bloomsim() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local prog=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} words=
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        words="$(_bloomsim_commands "$prog") -V --version --help"
    elif [ "$cmd" = help ]; then
        [ "$COMP_CWORD" -eq 2 ] && words=$(_bloomsim_commands "$prog")
    else
        case $prev in
            --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            --key-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            --rule) words=$("$prog" size --help 2> /dev/null | _bloomsim_section "The rules:") ;;
            --filter) words=$("$prog" list 2> /dev/null | _bloomsim_section "fingerprint filters") ;;
            --key-set) words=$("$prog" list 2> /dev/null | _bloomsim_section "key sets") ;;
            --writer|--reader) words=$("$prog" list 2> /dev/null | _bloomsim_section "schemes:") ;;
            --*) case $("$prog" "$cmd" --help 2> /dev/null) in
                     *"$prev "[A-Z]*) return ;; # the option takes a value: nothing to offer
                 esac ;;
        esac
        if [ -z "$words" ] && [ "${cur#-}" != "$cur" ]; then
            words=$("$prog" "$cmd" --help 2> /dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        elif [ -z "$words" ]; then
            case $cmd in
                run) words=$("$prog" list 2> /dev/null | _bloomsim_section "experiments")
                     COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur")) ;;
                audit) words=$("$prog" audit --list --tsv 2> /dev/null | cut -f1) ;;
                adapter) words="$("$prog" audit --list --tsv 2> /dev/null | cut -f1)
                                $("$prog" adapter --help 2> /dev/null |
                                  grep -o '(seiflotfy-cuckoo[^)]*)' | tr -d '(),')" ;;
                probes) words=$("$prog" list 2> /dev/null | _bloomsim_section "schemes:") ;;
            esac
        fi
    fi
    COMPREPLY+=($(compgen -W "$words" -- "$cur"))
}
complete -F _bloomsim -o filenames bloomsim
