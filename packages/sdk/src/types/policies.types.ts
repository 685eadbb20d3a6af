/** Policies and the impact report (README "Policies", "Policy impact"). */
import type { Action } from './checks.types';

export interface PolicyCategory {
  threshold: number;
  action: Action;
  provider?: string;
}

export interface Policy {
  policyId: string;
  name: string;
  categories: Record<string, PolicyCategory>;
  version: number;
  /** The built-in `default` until a policy of that id overrides it. */
  builtIn: boolean;
  yamlContent: string;
  createdAt: string;
  updatedAt: string;
}

export interface PolicyImpactRequest {
  /** The candidate policy. */
  yamlContent: string;
  /** Inclusive ISO 8601 bounds on the decisions' timestamp. */
  from?: string;
  to?: string;
  /** Default 5 000, at most 9 000. */
  limit?: number;
}

export interface ActionChange {
  from: Action;
  to: Action;
  count: number;
  /** What drove the change, most frequent first. */
  categories: { category: string; count: number }[];
  /** Up to 5, newest first. */
  sampleDecisionIds: string[];
}

export interface PolicyImpact {
  policyId: string;
  candidate: { name: string; version?: string | number };
  window: { from: string | null; to: string | null; limit: number; cut: boolean; oldest: string | null; newest: string | null };
  evaluated: number;
  unchanged: number;
  changed: number;
  /** Most frequent first. */
  changes: ActionChange[];
  actions: { before: Record<Action, number>; after: Record<Action, number> };
  replayMs: number;
}
