import { useEffect } from 'react';

/**
 * A file dropped outside the drop zone would make the browser open it and leave the page,
 * losing the visitor's archive, payment and downloads. This keeps such drops on the page.
 */
export function useNoDropNavigation(): void {
  useEffect(() => {
    const stay = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', stay);
    window.addEventListener('drop', stay);
    return () => {
      window.removeEventListener('dragover', stay);
      window.removeEventListener('drop', stay);
    };
  }, []);
}
