import { ChevronRight, X } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DIRECTIONS, hierarchySourcesFor, type HierarchyNode } from '../../lib/lsp/editing/hierarchy.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { useServices } from '../../services/ServicesContext.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import { symbolGlyph, symbolGroup } from '../outline/symbolKinds.js';
import { HierarchyModel } from './hierarchyModel.js';
import { fileName, hierarchyRows, jumpTarget, type HierarchyRow } from './hierarchyTree.js';
import './hierarchy.css';

/**
 * The call / type hierarchy panel of a session (desktop and tablet): opened by Show Call Hierarchy
 * or Show Type Hierarchy in the editor, it lists the callers or callees, subtypes or supertypes of
 * the symbol at the caret, one level per expansion; a row opens its call site (or its symbol).
 */
export function HierarchyPanel({ workspace }: { workspace: SessionWorkspace }) {
  const { t } = useTranslation('editing');
  const { editing } = useServices();
  const sessionId = workspace.sessionId;
  const model = useMemo(
    () => new HierarchyModel((request) => hierarchySourcesFor(editing.hierarchies, request.sessionId, request.path, request.kind)),
    [editing],
  );
  useEffect(() => () => model.dispose(), [model]);
  useEffect(() => {
    const listening = editing.hierarchyRequests.onDidRequest((request) => request.sessionId === sessionId && model.open(request));
    return () => listening.dispose();
  }, [editing, model, sessionId]);
  const state = useSnapshot(model.onDidChange, model.getSnapshot);
  const panel = useRef<HTMLElement>(null);
  const rootsDone = state?.roots.status === 'done' ? state.roots : undefined;
  const rows = useMemo(() => (state && rootsDone ? hierarchyRows(rootsDone.nodes, state.levels) : []), [state, rootsDone]);

  // A new hierarchy takes the focus, as VS Code's view does: its first row once the roots are in.
  const request = state?.request;
  // Where the focus was when the hierarchy was asked for (the editor): closing returns it there.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!request) return;
    if (!panel.current?.contains(document.activeElement)) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
  }, [request]);
  useEffect(() => {
    if (rootsDone) panel.current?.querySelector<HTMLButtonElement>('.hierarchy-open')?.focus();
  }, [rootsDone]);

  if (!state) return null;
  const titleKey = state.request.kind === 'calls' ? 'hierarchy.callsTitle' : 'hierarchy.typesTitle';
  const open = (node: HierarchyNode) => {
    const to = jumpTarget(node);
    if (to.path) void workspace.open(to.path, { lineNumber: to.range.start.line + 1, column: to.range.start.character + 1 });
  };
  const close = () => {
    const { returnFocus } = state.request;
    model.close();
    // Back to the editor it was opened from (the element focused when asked, without the editor's word).
    if (returnFocus) returnFocus();
    else if (opener.current?.isConnected) opener.current.focus();
  };
  return (
    <section
      ref={panel}
      tabIndex={-1}
      className="hierarchy-panel"
      data-testid="hierarchy-panel"
      data-kind={state.request.kind}
      data-direction={state.direction}
      aria-labelledby="hierarchy-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <div className="panel-header">
        <h2 id="hierarchy-title" className="panel-heading hierarchy-heading">
          {t(titleKey)}
        </h2>
        <div className="hierarchy-directions" role="group" aria-label={t('hierarchy.direction')}>
          {DIRECTIONS[state.request.kind].map((direction) => (
            <button
              key={direction}
              type="button"
              className="btn btn-sm"
              aria-pressed={state.direction === direction}
              data-testid="hierarchy-direction"
              data-direction={direction}
              onClick={() => model.setDirection(direction)}
            >
              {t(`hierarchy.${direction}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="icon-button hierarchy-close"
          aria-label={t('hierarchy.close')}
          title={t('hierarchy.close')}
          onClick={close}
          data-testid="hierarchy-close"
        >
          <X size={14} aria-hidden="true" />
        </button>
      </div>
      <div className="hierarchy-body">
        {state.roots.status === 'loading' && (
          <p className="hierarchy-note" role="status">
            {t('hierarchy.loading')}
          </p>
        )}
        {state.roots.status === 'unavailable' && <p className="hierarchy-note">{t('hierarchy.unavailable')}</p>}
        {state.roots.status === 'failed' && (
          <p className="hierarchy-note" role="alert">
            {t('hierarchy.failed', { message: state.roots.message })}
          </p>
        )}
        {rootsDone && rootsDone.nodes.length === 0 && (
          <p className="hierarchy-note" data-testid="hierarchy-nothing">
            {t('hierarchy.nothing')}
          </p>
        )}
        {rows.length > 0 && (
          <div className="hierarchy-tree" role="tree" aria-labelledby="hierarchy-title" data-testid="hierarchy-tree">
            {rows.map((row) => (
              <Row key={row.key} row={row} onToggle={(key, node) => model.toggle(key, node)} onOpen={open} />
            ))}
          </div>
        )}
      </div>
    </section>
  );
}

const indent = (depth: number) => ({ paddingInlineStart: `${0.25 + depth * 1}rem` });

function Row({ row, onToggle, onOpen }: { row: HierarchyRow; onToggle(key: string, node: HierarchyNode): void; onOpen(node: HierarchyNode): void }) {
  const { t } = useTranslation('editing');
  if (row.kind === 'note') {
    return (
      <div
        role="treeitem"
        aria-level={row.depth + 1}
        aria-selected={false}
        className="hierarchy-note hierarchy-row"
        style={indent(row.depth)}
        data-testid="hierarchy-note"
        data-note={row.note}
      >
        {row.note === 'failed' ? t('hierarchy.failed', { message: row.message }) : t(`hierarchy.${row.note}`)}
      </div>
    );
  }
  const { node } = row;
  const expanded = row.level !== undefined;
  const where = jumpTarget(node);
  const sites = node.sites.length;
  return (
    <div
      role="treeitem"
      aria-level={row.depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={expanded}
      aria-selected={false}
      className="hierarchy-row"
      style={indent(row.depth)}
      data-testid="hierarchy-item"
      data-name={node.name}
      data-depth={row.depth}
      data-path={where.path}
    >
      <button
        type="button"
        className="icon-button hierarchy-twisty"
        aria-label={t(expanded ? 'hierarchy.collapse' : 'hierarchy.expand', { name: node.name })}
        onClick={() => onToggle(row.key, node)}
        data-testid="hierarchy-toggle"
      >
        <ChevronRight size={14} aria-hidden="true" className={expanded ? 'hierarchy-chevron open' : 'hierarchy-chevron'} />
      </button>
      <button
        type="button"
        className="hierarchy-open"
        onClick={() => onOpen(node)}
        disabled={!where.path}
        title={where.path ? undefined : t('hierarchy.outside', { uri: where.uri })}
        data-testid="hierarchy-open"
      >
        <span className={`symbol-glyph symbol-${symbolGroup(node.kind)}`} aria-hidden="true">
          {symbolGlyph(node.kind)}
        </span>
        <span className="hierarchy-name">{node.name}</span>
        {node.detail && <span className="hierarchy-detail">{node.detail}</span>}
        <span className="hierarchy-where">
          {fileName(where)}:{where.range.start.line + 1}
        </span>
        {sites > 1 && <span className="count-badge">{t('hierarchy.sites', { count: sites })}</span>}
      </button>
    </div>
  );
}
