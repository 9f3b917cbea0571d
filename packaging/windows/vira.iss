; Inno Setup 6.3+ script: the Windows installer of Vira Desktop.
;
; Build (after `pyinstaller pyinstaller.spec` has made dist\vira\), from the checkout:
;   iscc /DAppVersion=0.1.0 packaging\windows\vira.iss
; -> dist\vira-0.1.0-windows-x64-setup.exe
; The release workflow passes AppVersion from vira_desktop/__init__.py; without it the
; version is read from vira.exe's version resource (written by pyinstaller.spec from the
; same place), so the installer and `vira-cli --version` always agree.
;
; The installer asks whether to install for the current user (no administrator rights,
; %LOCALAPPDATA%\Programs\Vira) or for all users (Program Files). Silent installs:
;   vira-0.1.0-windows-x64-setup.exe /VERYSILENT /CURRENTUSER
; The game never writes to its install folder: settings and the autosave live in
; %LOCALAPPDATA%\vira-desktop\vira-desktop\ (platformdirs) and are kept on uninstall.

#define AppName "Vira"
#define AppPublisher "Vira Desktop"
#define AppExeName "vira.exe"
#define DistDir "..\..\dist\vira"

#ifndef AppVersion
  #define AppVersion GetStringFileInfo(AddBackslash(SourcePath) + DistDir + "\" + AppExeName, "ProductVersion")
#endif

[Setup]
; AppId identifies the app for upgrades and the uninstaller: never change it.
AppId={{AB0AC16F-43B7-4E93-829E-7B7699C03E27}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppPublisher}
AppComments=Sweden's national card game at a desktop card table
VersionInfoVersion={#AppVersion}
VersionInfoProductName=Vira Desktop
VersionInfoDescription=Vira Desktop installer
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; per-user install without administrator rights by default; the user may choose all users
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=commandline dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
SetupIconFile=..\..\assets\icons\vira.ico
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName={#AppName} {#AppVersion}
OutputDir=..\..\dist
OutputBaseFilename=vira-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; the whole one-folder bundle: vira.exe (the game), vira-cli.exe (console), _internal\
Source: "{#DistDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"; Comment: "Vira, Sweden's national card game"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExeName}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExeName}"; Description: "{cm:LaunchProgram,{#StringChange(AppName, '&', '&&')}}"; Flags: nowait postinstall skipifsilent
