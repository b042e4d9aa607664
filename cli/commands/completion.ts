import type { Command } from "commander";
import { CliError, EXIT } from "../errors";
import { examples } from "../kit";

/** Every command path ("quota request") with its long flags, read from the program itself. */
function commandTree(root: Command, prefix = ""): Array<{ path: string; words: string[] }> {
  const out: Array<{ path: string; words: string[] }> = [];
  const flags = (c: Command) => [...c.options, ...root.options].flatMap((o) => (o.long ? [o.long] : []));
  out.push({
    path: prefix,
    words: [...root.commands.map((c) => c.name()), ...(prefix ? flags(root) : ["--help"])],
  });
  for (const c of root.commands) {
    const path = prefix ? `${prefix} ${c.name()}` : c.name();
    if (c.commands.length) out.push(...commandTree(c, path));
    else out.push({ path, words: flags(c) });
  }
  return out;
}

export function completionScript(program: Command, shell: string): string {
  const tree = commandTree(program);
  if (shell === "bash" || shell === "zsh") {
    const cases = tree.map((t) => `    "${t.path}") words="${t.words.join(" ")}" ;;`).join("\n");
    return `${shell === "zsh" ? "autoload -U +X bashcompinit && bashcompinit\n" : ""}_forja() {
  local cur path="" w words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in -*) ;; *) [ -n "$path" ] && path="$path $w" || path="$w" ;; esac
  done
  while :; do
    case "$path" in
${cases}
    *) path="\${path% *}"; [ "$path" = "\${path% *}" ] && path=""; continue ;;
    esac
    break
  done
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _forja forja
`;
  }
  if (shell === "fish") {
    return tree
      .flatMap((t) => {
        const cond = t.path
          ? `"__fish_seen_subcommand_from ${t.path.split(" ").at(-1)}"`
          : "__fish_use_subcommand";
        return t.words.map((w) =>
          w.startsWith("--")
            ? `complete -c forja -n ${cond} -l ${w.slice(2)}`
            : `complete -c forja -n ${cond} -f -a ${w}`,
        );
      })
      .join("\n")
      .concat("\n");
  }
  throw new CliError("The shell is bash, zsh or fish", EXIT.usage);
}

export function registerCompletion(program: Command) {
  examples(
    program
      .command("completion <shell>")
      .description("Print a shell completion script (bash, zsh or fish)")
      .action(async (shell: string) => {
        process.stdout.write(completionScript(program, shell));
      }),
    [
      "forja completion bash > /etc/bash_completion.d/forja",
      'echo "source <(forja completion zsh)" >> ~/.zshrc',
      "forja completion fish > ~/.config/fish/completions/forja.fish",
    ],
  );
}
