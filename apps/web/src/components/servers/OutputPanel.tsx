import { ChevronDown, Copy, Download } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languageForPath, type LanguageId, type ServerOutputLine } from '@kandev/protocol';
import type { SessionScope } from '../../services/sessionScope.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { outputText } from '../../lib/lsp/outputBuffer.js';
import './servers.css';

/** The connections whose Output can be shown: the active file's, then those of the other open tabs. */
export function sessionOutputConnections(scope: SessionScope, active: LspConnection | undefined, openPaths: readonly string[]): LspConnection[] {
  const out: LspConnection[] = active ? [active] : [];
  for (const path of openPaths) {
    const language = languageForPath(path);
    const connection = language && !scope.isDisposed ? scope.existingConnection(language) : undefined;
    if (connection && !out.includes(connection)) out.push(connection);
  }
  return out;
}

interface OutputPanelProps {
  /** The session's connections with a tab open, the active file's first. */
  connections: readonly LspConnection[];
}

/**
 * The bottom panel with a server's Output: its log messages, traces and stderr, as the lease kept
 * them (so a reloaded tab shows the recent lines), copyable and downloadable. One server at a time;
 * it follows the active file's language until the person picks another.
 */
export function OutputPanel({ connections }: OutputPanelProps) {
  const { t } = useTranslation('faults');
  const { t: tl } = useTranslation('lsp');
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<LanguageId | undefined>();
  const connection = connections.find((c) => c.language === picked) ?? connections[0];
  if (!connection) return null;
  return (
    <section
      className={`problems-panel output-panel${open ? ' open' : ''}`}
      data-testid="output-panel"
      data-language={connection.language}
      aria-labelledby="output-title"
    >
      <div className="panel-header">
        <button
          type="button"
          className="panel-toggle"
          aria-expanded={open}
          aria-controls="output-body"
          onClick={() => setOpen(!open)}
          data-testid="output-toggle"
        >
          <ChevronDown className={`panel-chevron${open ? '' : ' closed'}`} size={14} aria-hidden="true" />
          <span id="output-title" className="panel-heading">
            {t('output.title')}
          </span>
        </button>
        {open && <OutputTools connection={connection} connections={connections} onPick={setPicked} languageName={(l) => tl(`languages.${l}`)} />}
      </div>
      {open && <OutputLines connection={connection} />}
    </section>
  );
}

function OutputTools(props: {
  connection: LspConnection;
  connections: readonly LspConnection[];
  onPick(language: LanguageId): void;
  languageName(l: LanguageId): string;
}) {
  const { connection, connections, onPick, languageName } = props;
  const { t } = useTranslation('faults');
  const lines = useSnapshot(connection.output.onDidChange, connection.output.getSnapshot);
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [lines]);
  const copy = () => {
    void navigator.clipboard?.writeText(outputText(lines)).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${outputText(lines)}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${connection.language}-language-server.log`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <div className="output-tools">
      <select
        className="output-server"
        value={connection.language}
        onChange={(e) => onPick(e.target.value as LanguageId)}
        data-testid="output-server"
        aria-label={t('output.server')}
      >
        {connections.map((c) => (
          <option key={c.language} value={c.language}>
            {languageName(c.language)}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-sm" onClick={copy} disabled={lines.length === 0} data-testid="output-copy">
        <Copy size={14} aria-hidden="true" />
        {copied ? t('output.copied') : t('output.copy')}
      </button>
      <button type="button" className="btn btn-sm" onClick={download} disabled={lines.length === 0} data-testid="output-download">
        <Download size={14} aria-hidden="true" />
        {t('output.download')}
      </button>
    </div>
  );
}

function OutputLines({ connection }: { connection: LspConnection }) {
  const { t } = useTranslation('faults');
  const lines = useSnapshot(connection.output.onDidChange, connection.output.getSnapshot);
  const box = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // Follows new lines while the view is at its end; a person reading further up is left there.
  useLayoutEffect(() => {
    const el = box.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [lines]);
  return (
    <div
      className="output-body"
      id="output-body"
      ref={box}
      role="log"
      tabIndex={0}
      aria-label={t('output.title')}
      data-testid="output-lines"
      data-count={lines.length}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
      }}
    >
      {lines.length === 0 ? <p className="problems-empty">{t('output.empty')}</p> : lines.map((line) => <OutputLine key={line.seq} line={line} />)}
    </div>
  );
}

function OutputLine({ line }: { line: ServerOutputLine }) {
  const { t } = useTranslation('faults');
  const tag = line.source === 'log' ? (line.level ?? 'log') : line.source;
  return (
    <div className={`output-line output-${tag}`} data-testid="output-line" data-source={line.source} data-level={line.level} data-seq={line.seq}>
      <time className="output-time" dateTime={new Date(line.at).toISOString()}>
        {new Date(line.at).toLocaleTimeString()}
      </time>
      <span className="output-tag">{t(`output.tag.${tag}`)}</span>
      <span className="output-text">{line.text}</span>
    </div>
  );
}
