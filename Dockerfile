# syntax=docker/dockerfile:1
#
#   docker build -t kubeletcfg --build-arg VERSION=v1.2.3 .
#   docker run --rm -v "$PWD:/work:ro" kubeletcfg lint -c config.yaml -d conf.d
#
# A static binary (CGO_ENABLED=0) on distroless/static, as the nonroot user.
# VERSION is what `kubeletcfg version` and SARIF report: a build from a source
# tree has no module version, so the release sets it at link time.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/kubeletcfg/kubeletcfg/report.version=${VERSION}" \
      -o /out/kubeletcfg ./cmd/kubeletcfg

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/kubeletcfg /usr/local/bin/kubeletcfg
USER nonroot:nonroot
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/kubeletcfg"]
CMD ["--help"]
