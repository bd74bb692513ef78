const babelOptions = {
  presets: ["babel-preset-gatsby", ["@babel/preset-typescript", { allowDeclareFields: true }]],
};

module.exports = require("babel-jest").default.createTransformer(babelOptions);
