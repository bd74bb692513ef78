// CSS Modules: Gatsby 5 exports each class name as a named export (`import * as styles`).
declare module "*.module.css" {
  const classes: { readonly [className: string]: string };
  export = classes;
}

declare module "*.css";
