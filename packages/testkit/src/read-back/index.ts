export { kmlPoints, parseKml, parseXml } from './kml.js';
