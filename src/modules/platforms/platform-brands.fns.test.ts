import { colord, extend } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';
import { describe, expect, it } from 'vitest';
import { jpegStart, solidPng } from '../../../test/helpers/images.js';
import { checkAccent, checkDisplayName, checkLogo, MIN_ACCENT_CONTRAST, nearestReadableShade } from './platform-brands.fns.js';

extend([a11yPlugin]);
const at = ['body', 'accent_color'];

describe('accent colour', () => {
  it('accepts #rgb and #rrggbb in any case that reach 4.5:1 against white, stored as lower-case #rrggbb', () => {
    expect(checkAccent('#0B5CAD', at)).toBe('#0b5cad');
    expect(checkAccent(' #000 ', at)).toBe('#000000');
    expect(checkAccent('#767676', at)).toBe('#767676'); // 4.54:1, the lightest grey that passes
  });

  it('refuses a light colour, naming its ratio and the nearest darker shade that passes', () => {
    expect(() => checkAccent('#7fb2ff', at)).toThrow(
      /^#7fb2ff reaches only 2\.\d\d:1 against white; buttons \(white text\) and links need 4\.5:1\. The nearest darker shade that does is #[0-9a-f]{6}$/,
    );
    expect(() => checkAccent('#777777', at)).toThrow(/reaches only 4\.47:1/);
    expect(() => checkAccent('#ffffff', at)).toThrow(/reaches only 1\.00:1/);
  });

  it('the suggested shade passes, and is darker than what was asked', () => {
    for (const light of ['#7fb2ff', '#ffcc00', '#00ff00', '#ff69b4', '#ffffff']) {
      const shade = nearestReadableShade(light);
      expect(colord(shade).contrast('#ffffff'), light).toBeGreaterThanOrEqual(MIN_ACCENT_CONTRAST);
      expect(checkAccent(shade, at)).toBe(shade);
      expect(colord(shade).brightness()).toBeLessThan(colord(light).brightness());
    }
  });

  it('refuses what is not a hex colour', () => {
    for (const bad of ['blue', 'rgb(0,0,0)', '#12345', '#1234567', '0b5fff', '#ggg', '']) {
      expect(() => checkAccent(bad, at), bad).toThrow('An accent colour is a hex colour such as #0b5fff');
    }
  });
});

describe('display name', () => {
  it('is trimmed, 1 to 100 characters, one line', () => {
    expect(checkDisplayName('  Acme  ', ['n'])).toBe('Acme');
    expect(() => checkDisplayName('   ', ['n'])).toThrow('1 to 100 characters');
    expect(() => checkDisplayName('x'.repeat(101), ['n'])).toThrow('1 to 100 characters');
    expect(() => checkDisplayName('Acme\nPayroll', ['n'])).toThrow('one line');
  });
});

describe('logo', () => {
  it('a PNG or JPEG, recognised by its bytes, with its size and digest', () => {
    const png = checkLogo(solidPng(120, 40), ['logo']);
    expect(png).toMatchObject({ contentType: 'image/png', width: 120, height: 40 });
    expect(png.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(checkLogo(jpegStart(300, 100), ['logo'])).toMatchObject({ contentType: 'image/jpeg', width: 300, height: 100 });
  });

  it('refuses SVG, other files, empty and oversized files, and images over 2048 px a side', () => {
    expect(() => checkLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), ['logo'])).toThrow(
      'SVG logos are not accepted',
    );
    expect(() => checkLogo(Buffer.from('GIF89a........'), ['logo'])).toThrow('A logo must be a PNG or JPEG image');
    expect(() => checkLogo(Buffer.alloc(0), ['logo'])).toThrow('The logo is empty');
    const big = Buffer.concat([solidPng(10, 10), Buffer.alloc(100 * 1024)]);
    expect(() => checkLogo(big, ['logo'])).toThrow('A logo may be at most 100 KB; this one is 101 KB');
    expect(() => checkLogo(jpegStart(4000, 100), ['logo'])).toThrow('at most 2048×2048 pixels; this one is 4000×100');
  });
});
