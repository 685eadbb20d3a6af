import { IsString, Matches, MaxLength } from 'class-validator';

export const POLICY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
export const POLICY_ID_MESSAGE = 'policyId must be 1-128 letters, digits, dot, dash or underscore, starting with a letter or digit';

export class SavePolicyDto {
  @IsString() @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  /** The size limit itself is the parser's (POLICY_TOO_LARGE); this only bounds memory. */
  @IsString() @MaxLength(1024 * 1024)
  yamlContent!: string;
}
