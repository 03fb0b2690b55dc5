# SPDX-License-Identifier: GPL-2.0
# vmscope.bash - bash completion for vmscope. Every list comes from the
# program itself, so it cannot drift from it: the commands from
# `vmscope --list-commands`, each command's options and positionals from
# `vmscope CMD --list-options`, report sections, plot kinds and policies
# from `--list`, what-if knobs from `vmscope whatif --list-knobs`.
# Installed as share/bash-completion/completions/vmscope; or: source it.

# _vmscope_first_words: the first column of a --list output.
_vmscope_first_words()
{
	"$@" 2>/dev/null | while read -r word _; do printf '%s\n' "$word"; done
}

_vmscope()
{
	local vms=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
	local specs spec i word npos want takes

	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$vms" --list-commands 2>/dev/null) help --help --version" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "$("$vms" --list-commands 2>/dev/null) policy schema" -- "$cur"))
		return
	fi
	specs=$("$vms" "$cmd" --list-options 2>/dev/null) || return

	# The value of an option that takes one.
	if [ "$COMP_CWORD" -gt 2 ] && [[ "$prev" == -* ]]; then
		spec=$(printf '%s\n' "$specs" | while read -r name arg; do
			[ "$name" = "$prev" ] && [ -n "$arg" ] && printf '%s\n' "$arg"; done)
		if [ -n "$spec" ]; then
			case "$prev" in
			--format) COMPREPLY=($(compgen -W "text csv json" -- "$cur")) ;;
			--policy|-p)
				COMPREPLY=($(compgen -W "$(_vmscope_first_words "$vms" replay --list)" -- "$cur")
					   $(compgen -f -- "$cur")) ;;
			--set|-s|--assume|-a)
				compopt -o nospace 2>/dev/null
				COMPREPLY=($(compgen -W "$("$vms" whatif --list-knobs 2>/dev/null | sed 's/$/=/')" -- "$cur")) ;;
			*) COMPREPLY=($(compgen -f -- "$cur")) ;;
			esac
			return
		fi
	fi
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$specs" | while read -r name _; do
			[[ "$name" == --* ]] && printf '%s\n' "$name"; done)" -- "$cur"))
		return
	fi

	# A positional: count the ones before it, skipping options and their values.
	npos=0
	i=2
	while [ "$i" -lt "$COMP_CWORD" ]; do
		word=${COMP_WORDS[i]}
		if [[ "$word" == -* ]]; then
			takes=$(printf '%s\n' "$specs" | while read -r name arg; do
				[ "$name" = "$word" ] && [ -n "$arg" ] && echo y; done)
			[ -n "$takes" ] && i=$((i + 1))
		else
			npos=$((npos + 1))
		fi
		i=$((i + 1))
	done
	want=$(printf '%s\n' "$specs" | grep '^@' | sed -n "$((npos + 1))p")
	[ -z "$want" ] && want=$(printf '%s\n' "$specs" | grep '^@.*\.\.\.$' | tail -n 1)
	case "$cmd:$want" in
	report:@SECTION*) COMPREPLY=($(compgen -W "$(_vmscope_first_words "$vms" report --list)" -- "$cur")) ;;
	plot:@KIND*) COMPREPLY=($(compgen -W "$(_vmscope_first_words "$vms" plot --list)" -- "$cur")) ;;
	*) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _vmscope vmscope
