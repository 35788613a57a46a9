{{- define "openpm.name" -}}{{ .Chart.Name }}{{- end -}}
{{- define "openpm.fullname" -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- define "openpm.labels" -}}
app.kubernetes.io/name: {{ include "openpm.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}
{{- define "openpm.selector" -}}
app.kubernetes.io/name: {{ include "openpm.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
