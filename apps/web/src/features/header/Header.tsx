import { useApp } from '../../app/context';
import { PinIcon } from '../../components/Icons';

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
          <h1>{productName}</h1>
        </div>
        <p className="subtitle">{SUBTITLE}</p>
      </div>
    </header>
  );
}
