import { IsString, Matches, MaxLength } from 'class-validator';
import { POLICY_ID_MESSAGE, POLICY_ID_PATTERN } from '@cds/checks';

export class SavePolicyDto {
  @IsString() @Matches(POLICY_ID_PATTERN, { message: POLICY_ID_MESSAGE })
  policyId!: string;

  /** The size limit itself is the parser's (POLICY_TOO_LARGE); this only bounds memory. */
  @IsString() @MaxLength(1024 * 1024)
  yamlContent!: string;
}
