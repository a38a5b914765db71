import { bundles } from '../src/content/bundles';
import { expect, test } from './fixtures';

// On /bundles the three cards line up side by side (equal heights, the purchase
// buttons on one line), and no figure is shown twice on a card. Measured in the browser at
// the widths where the cards sit in a row (from Tailwind's lg breakpoint up).

for (const width of [1024, 1280, 1536]) {
  test(`the bundle cards line up at ${width} px: equal heights, buttons on one line`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/bundles');
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(bundles.length);

    const boxes = [];
    for (const bundle of bundles) {
      const card = page.getByRole('article', { name: bundle.name });
      const button = card.getByRole('link', { name: new RegExp(`^${bundle.cta}`) });
      const cardBox = await card.boundingBox();
      const buttonBox = await button.boundingBox();
      expect(cardBox, bundle.name).not.toBeNull();
      expect(buttonBox, bundle.name).not.toBeNull();
      boxes.push({ name: bundle.name, card: cardBox!, button: buttonBox! });
    }
    const [first, ...rest] = boxes;
    for (const other of rest) {
      // Side by side, not stacked.
      expect(Math.abs(other.card.y - first!.card.y), `${other.name} top`).toBeLessThanOrEqual(1);
      expect(Math.abs(other.card.height - first!.card.height), `${other.name} height`).toBeLessThanOrEqual(1);
      expect(Math.abs(other.button.y - first!.button.y), `${other.name} button top`).toBeLessThanOrEqual(1);
      expect(Math.abs(other.button.height - first!.button.height), `${other.name} button height`).toBeLessThanOrEqual(
        1,
      );
    }
  });
}

test('no figure is shown twice on a bundle card', async ({ page }) => {
  await page.goto('/bundles');
  for (const bundle of bundles) {
    const text = await page.getByRole('article', { name: bundle.name }).innerText();
    const figures: string[] = text.match(/\$[\d,]+(?:\.\d+)?\+?/g) ?? [];
    expect(figures.length, bundle.name).toBeGreaterThan(bundle.features.length);
    const repeated = figures.filter((figure, index) => figures.indexOf(figure) !== index);
    expect(repeated, `${bundle.name}: ${figures.join(' ')}`).toEqual([]);
  }
});
