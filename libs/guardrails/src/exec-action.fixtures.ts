import { authorizeAction } from './action-authorization';
import { GuardrailVerdict } from './guardrail-verdict';
import { resolvePolicy } from './guardrail-policy';

/** A command authorized as an `exec` action under the default policy, as the rule specs judge it. */
export const exec = (command: string): GuardrailVerdict =>
  authorizeAction({ actionType: 'exec', command, targetPath: '', requestedPermissions: [] }, resolvePolicy());

/** Stopped: flagged, blocked or waiting for approval (the command corpus's "stopped"). */
export const stopped = (command: string): boolean => {
  const v = exec(command);
  return v.action === 'flag' || v.action === 'block' || v.requiresApproval;
};
