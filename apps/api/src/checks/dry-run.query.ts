import { Query } from '@nestjs/cqrs';
import { Principal } from '@cds/auth';
import { DryRunRequestDto } from './dry-run.dto';

export class DryRunQuery extends Query<DryRunResult> {
  constructor(
    readonly principal: Principal,
    readonly request: DryRunRequestDto,
  ) {
    super();
  }
}

export interface DryRunResult {
  dryRun: true;
  policyId: string | null;
  safe: boolean;
  flagged: boolean;
  action: string;
  categories: { category: string; score: number; threshold: number; triggered: boolean }[];
}
