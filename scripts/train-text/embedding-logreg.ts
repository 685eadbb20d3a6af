/**
 * L2-regularised weighted logistic regression on dense embeddings, one head at a time,
 * fitted with L-BFGS (deterministic, no sampling). Rows are referenced by index into one
 * shared row-major matrix so the folds of cross-validation copy nothing.
 *
 *   minimise  Σ c_i·logloss(σ(w·x_i + b), y_i) / Σ c_i  +  λ/2 ‖w‖²     (b is not penalised)
 *
 * λ relates to scikit-learn's C by C = 1 / (λ · Σ c_i).
 */
export interface HeadData {
  /** row-major rows × dim */
  X: Float32Array;
  dim: number;
  rows: Int32Array;
  y: Uint8Array;
  /** per-row weight (label weight × corrections), > 0 */
  c: Float64Array;
}

export interface LinearHead {
  w: Float64Array;
  b: number;
}

export interface FitOptions {
  lambda: number;
  maxIter: number;
  /** stop when the gradient's max-norm falls below this */
  tol: number;
  /** previous solution to start from (a λ path converges in a few steps) */
  init?: LinearHead;
}

export const DEFAULT_FIT: Omit<FitOptions, 'lambda'> = { maxIter: 200, tol: 1e-5 };

export function fitHead(data: HeadData, o: FitOptions): LinearHead {
  const { dim } = data;
  const n = dim + 1;
  const theta = new Float64Array(n);
  if (o.init) {
    theta.set(o.init.w);
    theta[dim] = o.init.b;
  } else {
    // start at the weighted base rate
    let pos = 0;
    let tot = 0;
    for (let r = 0; r < data.rows.length; r++) {
      tot += data.c[r];
      if (data.y[r]) pos += data.c[r];
    }
    const p = Math.min(1 - 1e-6, Math.max(1e-6, pos / tot));
    theta[dim] = Math.log(p / (1 - p));
  }
  const g = new Float64Array(n);
  let f = objective(data, theta, o.lambda, g);
  const m = 8;
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  const d = new Float64Array(n);
  const alpha = new Float64Array(m);
  const gNew = new Float64Array(n);
  const thetaNew = new Float64Array(n);
  for (let it = 0; it < o.maxIter; it++) {
    if (maxAbs(g) < o.tol) break;
    // two-loop recursion: d = -H·g
    d.set(g);
    for (let k = S.length - 1; k >= 0; k--) {
      alpha[k] = rho[k] * dot(S[k], d);
      axpy(-alpha[k], Y[k], d);
    }
    if (S.length > 0) {
      const yy = dot(Y[S.length - 1], Y[S.length - 1]);
      scale(d, 1 / (rho[S.length - 1] * yy));
    }
    for (let k = 0; k < S.length; k++) {
      const beta = rho[k] * dot(Y[k], d);
      axpy(alpha[k] - beta, S[k], d);
    }
    scale(d, -1);
    let gd = dot(g, d);
    if (!(gd < 0)) {
      // not a descent direction: restart from steepest descent
      S.length = Y.length = rho.length = 0;
      d.set(g);
      scale(d, -1);
      gd = dot(g, d);
    }
    let step = S.length === 0 ? Math.min(1, 1 / Math.max(1e-12, maxAbs(g))) : 1;
    let fNew = Infinity;
    for (let ls = 0; ls < 30; ls++) {
      for (let i = 0; i < n; i++) thetaNew[i] = theta[i] + step * d[i];
      fNew = objective(data, thetaNew, o.lambda, gNew);
      if (fNew <= f + 1e-4 * step * gd) break;
      step /= 2;
    }
    if (!(fNew < f)) break;
    const s = new Float64Array(n);
    const yv = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = thetaNew[i] - theta[i];
      yv[i] = gNew[i] - g[i];
    }
    const sy = dot(s, yv);
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(s);
      Y.push(yv);
      rho.push(1 / sy);
    }
    theta.set(thetaNew);
    g.set(gNew);
    const done = f - fNew < 1e-10 * Math.max(1, Math.abs(f));
    f = fNew;
    if (done) break;
  }
  return { w: theta.slice(0, dim), b: theta[dim] };
}

/** Objective value; writes the gradient into `g`. */
function objective(data: HeadData, theta: Float64Array, lambda: number, g: Float64Array): number {
  const { X, dim, rows, y, c } = data;
  g.fill(0);
  let loss = 0;
  let tot = 0;
  const b = theta[dim];
  for (let r = 0; r < rows.length; r++) {
    const off = rows[r] * dim;
    let z = b;
    for (let j = 0; j < dim; j++) z += theta[j] * X[off + j];
    const ci = c[r];
    tot += ci;
    // log(1 + e^z) - y z, stably
    loss += ci * ((z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - (y[r] ? z : 0));
    const p = 1 / (1 + Math.exp(-z));
    const e = ci * (p - y[r]);
    for (let j = 0; j < dim; j++) g[j] += e * X[off + j];
    g[dim] += e;
  }
  const inv = 1 / tot;
  let reg = 0;
  for (let j = 0; j < dim; j++) {
    g[j] = g[j] * inv + lambda * theta[j];
    reg += theta[j] * theta[j];
  }
  g[dim] *= inv;
  return loss * inv + 0.5 * lambda * reg;
}

/** Raw scores (logits) of `rows` of X. */
export function logits(head: LinearHead, X: Float32Array, dim: number, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const off = rows[r] * dim;
    let z = head.b;
    for (let j = 0; j < dim; j++) z += head.w[j] * X[off + j];
    out[r] = z;
  }
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] += a * x[i];
}

function scale(x: Float64Array, a: number): void {
  for (let i = 0; i < x.length; i++) x[i] *= a;
}

function maxAbs(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}
