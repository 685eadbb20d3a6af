/**
 * Surface noise for the embedding heads: hashtags, mentions, links, emoji, numbers and
 * filler that social text carries and that says nothing about whether it is harmful. A
 * head trained on clean rows only learns "clean sentence" as part of a class: the threat
 * "I am going to kill you and your whole family tonight" scored violence 0.92, and 0.21
 * with " #1" after it. Training copies with noise added (same labels) teach the heads to
 * look past it; the evaluation measures recall on test rows with noise drawn from a
 * separate set of pieces, so a head cannot pass by memorising the training pieces.
 */
import { createHash } from 'crypto';
import { CorpusExample } from './corpus/example';

export interface NoisePieces {
  hashtags: string[];
  mentions: string[];
  links: string[];
  emoji: string[];
  tails: string[];
}

/** Pieces added to training copies. */
export const TRAINING_NOISE: NoisePieces = {
  hashtags: ['#1', '#MondayMotivation', '#tbt', '#news', '#love', '#fail', '#2024', '#FF', '#truth', '#life', '#BREAKING', '#sad'],
  mentions: ['@user', '@john_smith', '@realDonald', '@BBCNews', '@maria99', 'RT @user:'],
  links: ['http://t.co/x7Gq2', 'https://bit.ly/3abcd', 'https://example.com/post/123', 'www.youtube.com/watch?v=abc'],
  emoji: ['😂', '🔥', '🙄', '😡', '💯', '👍', '❤️', '😭', '🤣🤣', '👀'],
  tails: ['!!!', '...', 'lol', 'lmao', 'smh', '2024', '10/10', '??', 'haha', '#1 #2 #3'],
};

/** Pieces the evaluation adds to test rows: none of them appears in TRAINING_NOISE. */
export const EVALUATION_NOISE: NoisePieces = {
  hashtags: ['#top', '#Friday', '#viral', '#2023', '#goals', '#wow'],
  mentions: ['@someone', '@CNN', '@alex_k', 'RT @news:'],
  links: ['https://t.co/Zk81p', 'http://tinyurl.com/y4k2', 'https://news.site/a/42'],
  emoji: ['😅', '💀', '🙏', '😤', '✨'],
  tails: ['!!', 'omg', 'rofl', '2023', '1st', '!?', 'xD'],
};

/** A deterministic noisy version of `text`: one to three pieces from `pieces`, mostly at
 * the end, sometimes at the start, chosen by a hash of `key`. */
export function noisyText(text: string, key: string, pieces: NoisePieces = TRAINING_NOISE): string {
  const h = createHash('sha1').update(`noise:${key}`).digest();
  const kinds: (keyof NoisePieces)[] = ['hashtags', 'mentions', 'links', 'emoji', 'tails'];
  const n = 1 + (h[0] % 3);
  const before: string[] = [];
  const after: string[] = [];
  for (let i = 0; i < n; i++) {
    const list = pieces[kinds[h[1 + i] % kinds.length]];
    const piece = list[h[4 + i] % list.length];
    (h[7 + i] % 4 === 0 ? before : after).push(piece);
  }
  return [...before, text.trim(), ...after].join(' ');
}

/** Noisy training copies of a share of `idx` (chosen by hash, so reruns pick the same
 * rows): same dataset, group, split and labels, so a copy lands in its original's
 * cross-validation fold. Returns the new rows; the caller appends them. */
export function noisyCopies(examples: CorpusExample[], idx: number[], share: number): CorpusExample[] {
  if (share <= 0) return [];
  const out: CorpusExample[] = [];
  for (const i of idx) {
    const e = examples[i];
    const pick = createHash('sha1').update(`noise-pick:${e.dataset}:${e.text}`).digest().readUInt32BE(0) / 0x100000000;
    if (pick >= share) continue;
    const text = noisyText(e.text, `${e.dataset}:${e.text}`);
    out.push({ ...e, text, norm: text, hardNegative: e.hardNegative });
  }
  return out;
}
