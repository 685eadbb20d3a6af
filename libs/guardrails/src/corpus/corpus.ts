import { readCases } from './corpus-files';
import { CaseRow, CorpusCase, corpusCase } from './corpus.types';

const FILES = ['commands', 'actions', 'skills', 'policies', 'held-out', 'review', 'system', 'handoff'];

export const CORPUS: readonly CorpusCase[] = FILES.flatMap((f) => readCases<CaseRow>(f).map(corpusCase));

/** Figures of the held-out set (ids `ho-*`) on its first run, before the engine was changed for it. */
export const HELD_OUT_FIRST_RUN = {
  total: 52,
  passed: 46,
  safe: 24,
  falsePositives: 0,
  dangerous: 28,
  falseNegatives: 3,
  failures: [
    'ho-rm-cd-root-star: flag instead of block (cd was not tracked)',
    'ho-gpg-export-secret: warn (no rule for secret-exporting commands)',
    'ho-python-os-system: warn (shell calls inside interpreter one-liners were not analysed)',
    'ho-root-crontab-curl-sh: flag (cron content was not analysed)',
    'ho-perl-io-socket: warn (perl `system` without parentheses was missed)',
    'ho-quiet-npmrc: flag instead of block (.npmrc was not a known secret file in prompts)',
  ],
} as const;

/** Figures of the review set (ids `rv-*`) on its first run, before the engine was changed for it. */
export const REVIEW_FIRST_RUN = {
  total: 107,
  passed: 47,
  safe: 39,
  falsePositives: 1,
  dangerous: 68,
  falseNegatives: 49,
  failures: [
    '14 globbed paths (`rm -rf /?*`, `/[!w]*`, `/*/`, `/e?c`, `cat ~/.ss?/id_rsa`, `~/.aws/cred*`, `/e*/shadow`, `/proc/*/environ`...): warn or flag, never a dangerous command; `/{bin,etc,usr}` already blocked (unquoted braces were expanded)',
    '17 wrappers (taskset, chrt, runuser, setpriv, systemd-run, unshare, nsenter, script -c, parallel, tmux, screen; `ionice -t` and `watch -d` swallowed the command as an option value): warn; flock and busybox already blocked',
    '9 interpreter flags (`node -p`/`--print`/`--eval=`, `node -r mod -e`, `python3 -c"..."`, `ruby -r lib -e`, `php -c ini -r`, `fish --command=`): warn or flag; `python3 -Sc`, `perl -E`, `bash -lc` already blocked',
    '6 downloads saved by `>`, `| tee` or `-sLo`/`-qO` then run: warn, or judged on a mistaken host (`-sLo i.sh` took i.sh for a host); 1 safe `curl -sLo x.tgz URL` flagged for the same reason',
    '5 force pushes (`-uf`, `-fu`, `+main`, `+HEAD:...`): warn; `--force-with-lease` and `--force-if-includes` already blocked',
    '7 skill prompts (commands in plain sentences, exfiltration to a bare host or IP): allow, or flag without the exfiltration; 1 safe warning in plain text lacked its 20-point dangerous_command finding',
  ],
} as const;
