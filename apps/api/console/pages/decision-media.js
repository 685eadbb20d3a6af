import { blobUrl, get } from '../api.js';
import { h, safeHref } from '../dom.js';
import { actionBadge, errorBox, facts, loading, notice, score, section, table, triggeredColumn } from '../ui.js';

const MAX_THUMBNAILS = 24;

/** The items a decision scored, when there is more than its text: images (fetched with
 * the key, shown from an object URL), the text read in them, a multimodal check's items. */
export function partsSection(d, onLeave) {
  const parts = (d.parts ?? []).filter((p) => !p.frame);
  if (parts.length === 0 || (parts.length === 1 && parts[0].contentType === 'text')) return null;
  return section(
    'Items',
    h(
      'div',
      { class: 'parts' },
      parts.map((p, i) => partCard(p, i, onLeave)),
    ),
  );
}

function partCard(p, i, onLeave) {
  const triggered = (p.categories ?? []).filter((c) => c.triggered).map((c) => `${c.category} ${score(c.score)}`);
  return h(
    'article',
    { class: 'part' },
    h('h3', {}, `Item ${i + 1} · ${p.contentType} `, actionBadge(p.action)),
    mediaSha(p) ? thumbnail(mediaSha(p), `item ${i + 1}`, onLeave) : null,
    facts([
      ['Reference', p.contentRef ? h('code', { class: 'wrap' }, p.contentRef) : undefined],
      [
        'Media',
        p.media
          ? `${p.media.format} ${p.media.width}×${p.media.height}, ${p.media.bytes} bytes, ${p.media.framesScored}/${p.media.frameCount} frames scored`
          : undefined,
      ],
      ['Triggered', triggered.join(', ') || 'none'],
      ['Text read', p.ocrText ? h('pre', { class: 'content small' }, p.ocrText) : undefined],
    ]),
  );
}

/** The blob-store id of an image item: `media:sha256:<hex>`, or the facts of a fetched URL. */
function mediaSha(p) {
  const m = /^media:sha256:([0-9a-f]{64})$/.exec(p.contentRef ?? '');
  return m ? m[1] : p.contentType === 'image' ? (p.media?.sha256 ?? null) : null;
}

function thumbnail(sha, label, onLeave) {
  const box = h('div', { class: 'thumb' }, loading());
  blobUrl(`/v1/media/sha256/${sha}`).then(
    (url) => {
      onLeave(() => URL.revokeObjectURL(url));
      box.replaceChildren(h('img', { src: url, alt: label }));
    },
    () => box.replaceChildren(notice('Image no longer stored.')),
  );
  return box;
}

/** A video decision's sampled frames; the evidence of flagged frames comes with a signed,
 * expiring URL from GET /v1/video/result, and its image from the media store. */
export function videoSection(d, onLeave) {
  const out = h('div', {}, loading());
  const frames = (d.parts ?? []).filter((p) => p.frame);
  get(`/v1/video/result/${encodeURIComponent(d.decisionId)}`).then(
    (result) => out.replaceChildren(framesTable(frames, result?.results ?? [], onLeave)),
    (err) =>
      out.replaceChildren(err.status === 403 ? notice('Evidence URLs need a key with the checks scope.') : errorBox(err), framesTable(frames, [], onLeave)),
  );
  return section('Video frames', out);
}

function framesTable(frames, results, onLeave) {
  const evidence = new Map(results.filter((r) => r.evidence).map((r) => [r.frameNumber, r.evidence]));
  let thumbs = 0;
  return table(
    [
      { label: 'Frame', class: 'num', cell: (p) => p.frame.frameNumber },
      { label: 'At (s)', class: 'num', cell: (p) => p.frame.timestamp.toFixed(1) },
      { label: 'Action', cell: (p) => actionBadge(p.action) },
      triggeredColumn,
      {
        label: 'Evidence',
        cell: (p) => {
          const link = safeHref(evidence.get(p.frame.frameNumber)?.url);
          const sha = p.frame.evidenceSha256;
          const thumb = sha && thumbs++ < MAX_THUMBNAILS ? thumbnail(sha, `frame ${p.frame.frameNumber}`, onLeave) : null;
          return [thumb, link ? h('a', { href: link, target: '_blank', rel: 'noopener noreferrer' }, 'evidence URL') : null];
        },
      },
    ],
    frames,
    { empty: 'No frames scored.' },
  );
}
