import { ShellCommand } from '../shell/shell-parser';

export type Severity = 'critical' | 'high' | 'medium';

/** One built-in rule hit on one simple command. */
export interface CommandRisk {
  /** Stable id of the built-in rule (GUARDRAILS.md lists them). */
  rule: string;
  severity: Severity;
  /** What the command does, in words: "recursive delete of the root filesystem". */
  description: string;
  command: ShellCommand;
  /** What to quote in the reason when it is more than the one command (a whole pipeline). */
  shown?: string;
  category: 'dangerous_command' | 'obfuscated_command' | 'process_control' | 'system_change';
  /** The path the rule judged (as written), when it judged one: other path findings stand aside for it. */
  path?: string;
}
