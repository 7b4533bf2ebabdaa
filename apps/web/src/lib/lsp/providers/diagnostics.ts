import type * as Monaco from 'monaco-editor';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { MonacoMarkerSeverity, MonacoMarkerTag } from './monacoEnums.js';
import type { MonacoUri } from './host.js';
import { isLspRange, toMonacoRange } from './ranges.js';

export function toMarkerSeverity(severity: number | undefined): Monaco.MarkerSeverity {
  switch (severity) {
    case 2:
      return MonacoMarkerSeverity.Warning as Monaco.MarkerSeverity;
    case 3:
      return MonacoMarkerSeverity.Info as Monaco.MarkerSeverity;
    case 4:
      return MonacoMarkerSeverity.Hint as Monaco.MarkerSeverity;
    default:
      return MonacoMarkerSeverity.Error as Monaco.MarkerSeverity;
  }
}

/**
 * One LSP diagnostic -> Monaco marker data, with relatedInformation whose server URIs map back
 * to the session's model URIs (outside the workspace they stay file URIs).
 */
export function toMarkerData(
  diagnostic: Diagnostic,
  toModelUri: (fileUri: string) => MonacoUri,
  parseUri: (uri: string) => MonacoUri,
): Monaco.editor.IMarkerData {
  const range = toMonacoRange(diagnostic.range);
  const marker: Monaco.editor.IMarkerData = {
    severity: toMarkerSeverity(diagnostic.severity),
    message: typeof diagnostic.message === 'string' ? diagnostic.message : '',
    ...range,
  };
  if (typeof diagnostic.source === 'string') marker.source = diagnostic.source;
  if (diagnostic.code !== undefined && diagnostic.code !== null) {
    const value = String(diagnostic.code);
    const href = diagnostic.codeDescription?.href;
    marker.code = typeof href === 'string' ? { value, target: parseUri(href) } : value;
  }
  const tags: Monaco.MarkerTag[] = [];
  if (diagnostic.tags?.includes(1)) tags.push(MonacoMarkerTag.Unnecessary as Monaco.MarkerTag);
  if (diagnostic.tags?.includes(2)) tags.push(MonacoMarkerTag.Deprecated as Monaco.MarkerTag);
  if (tags.length) marker.tags = tags;
  if (diagnostic.relatedInformation?.length) {
    marker.relatedInformation = diagnostic.relatedInformation
      .filter((r) => typeof r.location?.uri === 'string' && isLspRange(r.location.range))
      .map((r) => ({ resource: toModelUri(r.location.uri), message: r.message, ...toMonacoRange(r.location.range) }));
  }
  return marker;
}
