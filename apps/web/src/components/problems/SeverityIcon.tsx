import { CircleX, Info, Lightbulb, TriangleAlert } from 'lucide-react';
import type { ProblemSeverity } from '../../lib/workspace/problems.js';

const ICONS = { error: CircleX, warning: TriangleAlert, info: Info, hint: Lightbulb } as const;

/** The glyph of a severity; its colour is a hint, the shape carries it. */
export function SeverityIcon({ severity, size = 14 }: { severity: ProblemSeverity; size?: number }) {
  const Icon = ICONS[severity];
  return <Icon className={`severity-icon severity-${severity}`} size={size} aria-hidden="true" />;
}
