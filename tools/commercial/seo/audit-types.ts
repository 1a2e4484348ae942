// What an audit answers: each check's result, the fixes worth most, the score (checks.ts makes them).

export type Effort = 'low' | 'medium' | 'high';
export const EASE: Record<Effort, number> = { low: 3, medium: 2, high: 1 };

export interface CheckResult {
  id: string;
  title: string;
  passed: boolean;
  weight: number;
  effort: Effort;
  evidence: string;
}

export interface Fix {
  check: string;
  title: string;
  fix: string;
  weight: number;
  effort: Effort;
  priority: number;
  evidence: string;
}

export interface QuickAudit {
  score: number;
  checks: CheckResult[];
  failed: string[];
  top_fixes: Fix[];
}
