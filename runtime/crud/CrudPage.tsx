import { useContext, useEffect, useState } from 'react';
import { Result, Spin } from 'antd';
import { useInRouterContext, useNavigate } from 'react-router-dom';
import type { PageDeclaration } from './types';
import { CrudServicesContext, type CrudServices } from './services';
import { builtinPages } from './declarations';
import { CrudView } from './CrudView';

export interface CrudPageProps {
  /** a built-in id (schemas/pages/<id>.page.json) or a custom page's pageKey */
  pageId?: string;
  /** render this declaration directly (page-manager preview, tests, bench) */
  declaration?: PageDeclaration;
}

/** Resolves a declaration, then hands it to the generic CrudView. */
export function CrudPageWith({ pageId, declaration, services }: CrudPageProps & { services: CrudServices }) {
  const outer = useContext(CrudServicesContext);
  const base = outer ?? services;
  const inRouter = useInRouterContext();
  // fixed for the life of the component, so the conditional hook is stable
  const navigate = inRouter ? useNavigate() : undefined; // eslint-disable-line react-hooks/rules-of-hooks
  const [svc] = useState<CrudServices>(() => (navigate && !base.navigate ? { ...base, navigate: (to) => navigate(to) } : base));
  const [loaded, setLoaded] = useState<{ id: string; decl?: PageDeclaration; error?: string } | null>(null);

  const builtin = pageId ? builtinPages[pageId] : undefined;
  useEffect(() => {
    if (declaration || builtin || !pageId) return;
    let live = true;
    if (!svc.loadPage) return setLoaded({ id: pageId, error: '页面不存在' });
    svc.loadPage(pageId).then(
      (decl) => live && setLoaded({ id: pageId, decl }),
      () => live && setLoaded({ id: pageId, error: '页面不存在或尚未发布' }),
    );
    return () => { live = false; };
  }, [pageId, declaration, builtin, svc]);

  const decl = declaration ?? builtin ?? (loaded?.id === pageId ? loaded?.decl : undefined);
  let body: React.ReactNode;
  if (decl) body = <CrudView key={JSON.stringify(decl)} page={decl} />;
  else if (loaded?.id === pageId && loaded?.error) body = <Result status="404" title="404" subTitle={loaded.error} />;
  else body = <div style={{ padding: 48, textAlign: 'center' }}><Spin /></div>;
  return <CrudServicesContext.Provider value={svc}>{body}</CrudServicesContext.Provider>;
}
