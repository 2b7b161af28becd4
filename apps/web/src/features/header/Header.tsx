import { useApp } from '../../app/context';
import { PinIcon } from '../../components/Icons';

/**
 * The id of the page's main heading, which takes the focus when what had it goes away and the
 * page has no better place for it (see LastVisitCard).
 */
export const PAGE_TITLE_ID = 'page-title';

/** The subtitle product.md gives the header. */
export const SUBTITLE = 'Convert your Google Maps saved places into KML files for Google My Maps';

/** The page header: the product name from the server's config, and what the product does. */
export function Header() {
  const productName = useApp((store) => store.config.value.productName);
  return (
    <header className="site-header">
      <div className="container header-inner">
        <div className="brand">
          <span className="brand-mark">
            <PinIcon />
          </span>
          <h1 id={PAGE_TITLE_ID} tabIndex={-1}>
            {productName}
          </h1>
        </div>
        <p className="subtitle">{SUBTITLE}</p>
      </div>
    </header>
  );
}
