import { describe, expect, it } from 'vitest';
import { buildKml } from './kml.js';
import { linkText, MAPS_LINK_TEXT } from './link-text.js';
import { buildGpx } from './formats/gpx.js';

describe('linkText', () => {
  it.each([
    'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
    'http://maps.google.com/?cid=123',
    'https://www.google.co.uk/maps/search/48.1,11.5',
    'https://www.google.com/search?q=x&ludocid=123',
    'https://www.google.com/maps',
    'https://www.google.com/maps?cid=123',
    'https://www.google.com/?cid=123',
    'https://maps.google.de/',
    'https://maps.app.goo.gl/abc',
    'https://goo.gl/maps/abc',
  ])('calls a link to Google "View on Google Maps" (%s)', (url) => {
    expect(linkText(url)).toBe(MAPS_LINK_TEXT);
  });

  it.each([
    ['https://evil.example/phish?@48.1,2.1,15z', 'Open evil.example'],
    ['https://www.google.com.evil.example/maps/place/x', 'Open www.google.com.evil.example'],
    ['https://www.google.com@evil.example/maps/place/x', 'Open evil.example'],
    ['http://maps.google.com:8080/?cid=1', 'Open maps.google.com'],
    ['https://gооgle.com/maps', 'Open xn--ggle-55da.com'],
    ['http://', 'Open link'],
    // Google's redirectors and other pages are not Google Maps (web security audit).
    ['https://www.google.com/url?q=https://evil.example/', 'Open www.google.com'],
    ['https://www.google.com/amp/s/evil.example/', 'Open www.google.com'],
    ['https://google.co.uk/url?q=https://evil.example/&cid=1', 'Open google.co.uk'],
    ['https://maps.google.com/url?q=https://evil.example/', 'Open maps.google.com'],
    ['https://www.google.com/mapsevil', 'Open www.google.com'],
    ['https://www.google.com/search?q=evil', 'Open www.google.com'],
  ])('names where any other link goes (%s)', (url, text) => {
    expect(linkText(url)).toBe(text);
  });

  it("words the KML balloon's and the GPX link's text by it", () => {
    const place = {
      title: 'P',
      url: 'https://evil.example/phish',
      coordinates: { lat: 1, lng: 2 },
    };
    expect(buildKml([place])).toContain(
      '<a href="https://evil.example/phish">Open evil.example</a>',
    );
    expect(buildKml([place])).not.toContain(MAPS_LINK_TEXT);
    expect(buildGpx([place])).toContain(
      '<link href="https://evil.example/phish"><text>Open evil.example</text></link>',
    );
  });
});
