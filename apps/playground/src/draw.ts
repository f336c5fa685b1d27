// The page's two pictures: the loss curve so far and the decision boundary over the points.

function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas context');
  return ctx;
}

/** The losses so far, scaled to the first (largest expected) loss, over `steps` on the x axis. */
export function drawLoss(canvas: HTMLCanvasElement, losses: readonly number[], steps: number): void {
  const ctx = context(canvas);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (losses.length < 2) return;
  const max = Math.max(...losses);
  ctx.strokeStyle = '#d33';
  ctx.beginPath();
  losses.forEach((l, i) => {
    const px = (i / (steps - 1)) * (canvas.width - 10) + 5;
    const py = canvas.height - 5 - (l / max) * (canvas.height - 10);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.stroke();
}

/** The class of each cell of an n x n grid over [-extent, extent]^2 (row-major, y down), and the points. */
export function drawBoundary(
  canvas: HTMLCanvasElement,
  grid: { n: number; extent: number; classes: readonly number[] },
  points: readonly number[][],
  labels: readonly number[],
): void {
  const ctx = context(canvas);
  const { n, extent, classes } = grid;
  const cell = canvas.width / n;
  classes.forEach((c, k) => {
    ctx.fillStyle = c === 1 ? '#cde' : '#fdd';
    ctx.fillRect((k % n) * cell, Math.floor(k / n) * cell, cell + 1, cell + 1);
  });
  const scale = (v: number) => ((v + extent) / (2 * extent)) * canvas.width;
  points.forEach(([px = 0, py = 0], k) => {
    ctx.fillStyle = labels[k] === 1 ? '#16a' : '#c22';
    ctx.fillRect(scale(px) - 1.5, scale(py) - 1.5, 3, 3);
  });
}
