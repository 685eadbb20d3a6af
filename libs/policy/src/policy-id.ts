/** Policy ids: caller-chosen, 1-128 characters. */
export const POLICY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
export const POLICY_ID_MESSAGE = 'policyId must be 1-128 letters, digits, dot, dash or underscore, starting with a letter or digit';
