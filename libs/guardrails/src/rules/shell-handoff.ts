/**
 * A shell handed to a program as an argument (`PROG --on-error=/bin/sh`, `PROG -x /bin/bash`,
 * `PROG 'unixexec:path=/bin/sh'`): a program given the path of a shell runs it, unless its
 * job is to treat the file as data (list, hash, copy, inspect it), to name it as a setting
 * (a login shell), or to run it for the user somewhere else (a container, a remote host, a
 * terminal). Programs whose command-taking options are known are judged precisely by the
 * shell-escape and side-door rules; this rule covers every other program.
 */
import { handedCommandLines } from '../shell/handed-commands';
import { INTERPRETERS, SHELL_PROGRAMS } from '../shell/shell-command';
import { ShellCommand } from '../shell/shell-parser';
import { CommandRisk } from './command-risk';

/** The path of a shell, as a word or inside one (`--x=/bin/sh`, `path=/bin/bash`, `"ProxyCommand /bin/sh"`). */
const SHELL_PATH = /(?:^|[\s=:,;'"(])\/(?:usr\/)?(?:local\/)?bin\/(?:ba|z|da|k|c|tc|a|mk|fi)?sh(?=$|[\s'",;)])/;

/** Programs that use a shell's path as data, as a setting, or run it for the user elsewhere. */
const NOT_RUNNERS = new Set([
  // look at, hash, compare or copy the file
  ...['ls', 'dir', 'stat', 'file', 'readlink', 'realpath', 'namei', 'ldd', 'cat', 'tac', 'less', 'more', 'most', 'head', 'tail', 'strings', 'xxd'],
  ...['hexdump', 'od', 'objdump', 'nm', 'readelf', 'size', 'otool', 'lipo', 'codesign', 'spctl', 'xattr', 'mdls', 'md5sum', 'sha1sum', 'sha256sum'],
  ...['sha512sum', 'b2sum', 'cksum', 'sum', 'cmp', 'diff', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'sed', 'sort', 'wc', 'cut', 'basename', 'dirname'],
  ...['cp', 'mv', 'ln', 'install', 'rsync', 'scp', 'tar', 'zip', 'gzip', 'du', 'find', 'chmod', 'chown', 'chgrp', 'chattr', 'lsattr', 'getfacl'],
  ...['setfacl', 'touch', 'rm', 'shred', 'unlink', 'tee', 'vi', 'vim', 'nvim', 'nano', 'emacs', 'code', 'open', 'upx'],
  // say where it is or what owns it
  ...['which', 'whereis', 'type', 'command', 'hash', 'test', '[', '[[', 'echo', 'printf', 'dpkg', 'dpkg-query', 'rpm', 'apt-file'],
  ...['update-alternatives', 'alternatives', 'man', 'info', 'whatis', 'apropos', 'ps', 'pgrep', 'pidof', 'lsof', 'fuser', 'pkill', 'killall'],
  // a login shell is a setting; su and its kin start the shell they are given by design (the user-shell rule judges them)
  ...['chsh', 'usermod', 'useradd', 'adduser', 'dscl', 'pw', 'lchsh', 'sysadminctl', 'su', 'runuser', 'sg', 'newgrp', 'login', 'machinectl'],
  // the user's shell in a container, on a remote host, in a terminal or multiplexer
  ...['docker', 'podman', 'nerdctl', 'kubectl', 'oc', 'lxc', 'incus', 'ssh', 'mosh', 'tmux', 'screen', 'xterm', 'gnome-terminal', 'konsole'],
  ...['alacritty', 'kitty', 'wezterm', 'terminator', 'tilix', 'xfce4-terminal', 'urxvt'],
]);

export function shellHandoffRisks(c: ShellCommand): CommandRisk[] {
  const { program, args } = c.unwrapped;
  if (program === '' || NOT_RUNNERS.has(program) || SHELL_PROGRAMS.has(program) || INTERPRETERS.has(program.replace(/[0-9.]+$/, ''))) return [];
  // A shell handed as a command line (`PROG -e /bin/sh`) is judged where it runs (shell_escape).
  const handed = handedCommandLines(program, args, false).map((h) => h.script);
  const given = args.find((a) => SHELL_PATH.test(a) && !handed.some((h) => a === h || a.endsWith(`=${h}`)));
  if (given === undefined) return [];
  const shell = (/\/(?:usr\/)?(?:local\/)?bin\/\w+/.exec(given) ?? [given])[0];
  return [
    {
      rule: 'shell_argument',
      severity: 'medium',
      description: `${program} is handed ${shell} as an argument, which it may run (a shell started by another program)`,
      command: c,
      category: 'dangerous_command',
    },
  ];
}
