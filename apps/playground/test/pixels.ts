// Reads a screenshot back in the page: the PNG is decoded by the browser (an <img>), and the part
// that one element covers is counted by colour, so the spec checks what the picture shows.
import type { Page } from 'puppeteer-core';

export interface ColourCounts {
  /** class 0's colour (the boundary's orange, paler or not) */
  orange: number;
  /** class 1's colour */
  blue: number;
  /** the cpu curve's blue (#1f77b4) */
  cpuLine: number;
  /** the gpu curve's orange (#e8710a) */
  gpuLine: number;
  /** the difference chart's purple (#8e44ad) */
  purple: number;
}

export function colourCounts(page: Page, png: Uint8Array, id: string): Promise<ColourCounts> {
  const url = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  return page.evaluate(
    async (src, elementId) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const rect = document.getElementById(elementId)!.getBoundingClientRect();
      const [x, y] = [Math.round(rect.left + scrollX), Math.round(rect.top + scrollY)];
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(rect.width);
      canvas.height = Math.round(rect.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, x, y, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = { orange: 0, blue: 0, cpuLine: 0, gpuLine: 0, purple: 0 };
      const near = (r: number, g: number, b: number, c: number[]) =>
        Math.abs(r - c[0]!) + Math.abs(g - c[1]!) + Math.abs(b - c[2]!) < 40;
      for (let k = 0; k < data.length; k += 4) {
        const [r, g, b] = [data[k]!, data[k + 1]!, data[k + 2]!];
        if (r > g && g > b && r - b > 40) counts.orange++;
        if (b > g && g > r && b - r > 40) counts.blue++;
        if (near(r, g, b, [31, 119, 180])) counts.cpuLine++;
        if (near(r, g, b, [232, 113, 10])) counts.gpuLine++;
        if (near(r, g, b, [142, 68, 173])) counts.purple++;
      }
      return counts;
    },
    url,
    id,
  );
}
